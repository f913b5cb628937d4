export { createDatabase, RequestScopes, type Database } from './database.ts';
export { DbScope, currentScope, detached } from './request-scope.ts';
export { onCluster } from './routing-pool.ts';
export { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';
export { sql, quoteIdent, quoteLiteral, qualify, compiledQuery, isoTimestamp, type CompiledSql, type Db, type DbTransaction } from './sql.ts';
export { runMigrations, runMigrationsIn, type Migration } from './migrate.ts';
export { controlMigrations, CONTROL_SCHEMA } from './control-migrations.ts';
export { clusterMigrations } from './cluster-migrations.ts';
export { exec, rows, column, exists, reachable, sqlState, withTryLock, cursorRows } from './exec.ts';
