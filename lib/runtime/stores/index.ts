export { StoreError, type StoreErrorCode } from './errors';
export { MemoryStore, type MemoryStoreOptions } from './memory';
