// class-transformer 0.5 ships the module `cjs/storage.js` with its types under `types/storage.d.ts`;
// this maps the run-time path to those types.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
