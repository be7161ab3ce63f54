import sharp from 'sharp';
import { PipelineError } from '../../src/pipeline/errors.ts';
import type { Pipeline, PipelineInput, ProgressFn } from '../../src/pipeline/types.ts';
import { buildTestAvatar } from '../../test/fixtures/avatar.ts';

/**
 * A test double of the pipeline for the service's own tests (the layer above the pipeline): it
 * reads the photo's real size with sharp, fails with 10001 for photos 17 px wide (to test refunds)
 * and, for photos 1 px high, with the code their width gives (10000: an unexpected error instead,
 * which the service retries), takes SCRIPTED_PIPELINE_MS per avatar, and returns the synthetic
 * fixture avatar.
 */
export function createPipeline(): Pipeline {
  const delay = Number(process.env.SCRIPTED_PIPELINE_MS ?? 50);
  return {
    async run(input: PipelineInput, progress: ProgressFn) {
      const meta = await sharp(input.file).metadata();
      if (meta.width === 17) throw new PipelineError(10001, 'no face found');
      if (meta.height === 1 && meta.width === 10000) throw new Error('scripted unexpected failure');
      if (meta.height === 1) throw new PipelineError(meta.width!, 'scripted refusal');
      for (let step = 1; step <= 4; step++) {
        await new Promise((r) => setTimeout(r, delay / 4));
        progress(step * 25, `step ${step}`);
      }
      const model = buildTestAvatar({ rings: 8, segments: 12, textureSize: 16 });
      const head = model.meshes[0]!.geometry;
      const avatar = head.positions.map((v, i) => (i % 3 === 0 ? v * 1.1 : v));
      const image = sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 200, g: 150, b: 120, alpha: 1 } } });
      const png = new Uint8Array(await image.clone().png().toBuffer());
      return {
        model,
        preview: { jpg: new Uint8Array(await image.clone().jpeg().toBuffer()), png },
        views: { front: png, side: png, threeQuarter: png },
        meta: { template: input.template, 'supports-deformation': '1' },
        deformation: { template: head.positions, avatar, indices: head.indices },
      };
    },
  };
}
