declare module 'gltf-validator' {
  interface ValidationReport {
    issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string; severity: number; pointer?: string }[] };
    /** What the validator read: `storage` is `buffer-view` for data inside the GLB, `external` for files beside it. */
    info: { resources: { pointer: string; storage: string; mimeType?: string; image?: { width: number; height: number } }[] };
  }
  export function validateBytes(data: Uint8Array, options?: {
    maxIssues?: number;
    externalResourceFunction?: (uri: string) => Promise<Uint8Array>;
  }): Promise<ValidationReport>;
}
