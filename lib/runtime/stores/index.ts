export { StoreError, type StoreErrorCode } from './errors';
export { MemoryStore, type MemoryStoreOptions } from './memory';
export { SqliteStore, SQLITE_SCHEMA_VERSION, type SqliteStoreOptions } from './sqlite';
export { PostgresStore, POSTGRES_SCHEMA_VERSION, type PostgresStoreOptions } from './postgres';
