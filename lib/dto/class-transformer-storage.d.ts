// class-transformer 0.5 ships the module `cjs/storage.js` with its types under `types/storage.d.ts`;
// this maps the run-time path to those types.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
declare module 'class-transformer/cjs/TransformOperationExecutor.js' {
  export { TransformOperationExecutor } from 'class-transformer/types/TransformOperationExecutor';
}
declare module 'class-transformer/cjs/constants/default-options.constant.js' {
  export { defaultOptions } from 'class-transformer/types/constants/default-options.constant';
}
