/** One entry of an archive as listed by its directory, before anything is unpacked. */
export interface ArchiveEntry {
  /** The name as stored, `/` or `\` separated. */
  name: string;
  directory: boolean;
  /** A symbolic or hard link (refused by the caller). */
  link: boolean;
  /** Declared uncompressed size in bytes. */
  size: number;
  /** Unpacks the entry; never produces more than the declared size (refuses instead). */
  read(): Uint8Array | Promise<Uint8Array>;
}
