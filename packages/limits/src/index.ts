// @cms/limits: rate limits shared by every gateway instance (Redis) or kept in-process (embedded).
export { createWindowCounters, MemoryWindowCounters, RedisWindowCounters, type WindowCount, type WindowCounters } from './window-counters.ts';
export { hitLimit, LeasedRate, type Limit } from './limits.ts';
export { Lockout, lockDurationMs, LOCKED_MESSAGE, type LockoutPolicy } from './lockout.ts';
