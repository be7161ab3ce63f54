/**
 * The pipeline module the service's workers load (config PIPELINE_MODULE): photos go through the photo
 * pipeline, head meshes through the mesh pipeline.
 */
import { landmarkModel } from './face/landmark-model.ts';
import { runMeshPipeline } from './mesh/mesh-pipeline.ts';
import { PhotoPipeline } from './photo-pipeline.ts';
import { HelperThread } from './helper-thread.ts';
import { loadTemplateView } from './template-source.ts';
import type { Pipeline } from './types.ts';
import { hairLibrary } from '../geometry/hair/library.ts';
import { expressionBasis } from '../geometry/fit/fit-expression.ts';
import { blinkReach } from '../geometry/expressions/blink-reach.ts';
import { TEMPLATES } from '../model/product.ts';

/**
 * The pipeline the service's worker uses; loads the landmark model and builds the templates with what the photo
 * pipeline derives from each once (hairstyle library, expression basis, the lids a blink reaches; some 3 s each)
 * up front, so the first job is not slower than the others. Part of a photo's avatar
 * (blendshapes, side views) is made on a helper thread beside the rest.
 */
export async function createPipeline(): Promise<Pipeline> {
  await landmarkModel();
  for (const version of TEMPLATES) {
    const tpl = loadTemplateView(version);
    hairLibrary(tpl.source, tpl.hairCoverage);
    expressionBasis(tpl.source);
    blinkReach(tpl.source);
  }
  const photo = new PhotoPipeline(loadTemplateView, new HelperThread());
  return {
    run: (input, progress) => (input.inputType === 'photo' ? photo.run(input, progress) : runMeshPipeline(input, progress, loadTemplateView)),
  };
}
