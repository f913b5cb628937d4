// Named prepared statements, per pooled connection ("session"). A statement text the session runs
// a second time gets a name: pg then sends Parse once per session, and Postgres keeps the parsed
// (and, once it is no worse, generic) plan — the next runs send only Bind/Execute and skip parsing
// and planning, which for a compiled content read costs more than running it.
//
// Bounded: at most `max` (DB_PREPARED_PER_CONNECTION; 0: none) named statements per session
// (Postgres memory), least recently used first out. Each project's statements have their own texts (its schema's name), so
// with many warm projects the names turn over: a session keeps the busiest ones. An evicted or
// forgotten name is "retired": the session's next named statement deallocates it on the server in
// the same round trip (deallocating-query.ts), which also drops it from pg's record of parsed
// names. Names are never reused (a fresh sequence), so a retired name still in flight or never
// parsed cannot be mistaken for another text's. A session closed by the pool (idle timeout, age or
// uses: sessions.ts) takes its statements with it.
// Texts seen once, waiting for a second sighting (cleared when full: a first sighting is cheap).
const MAX_SEEN = 500;

// Statements our compilers write; transaction control, SET and DDL run unnamed.
const PREPARABLE = /^(?:SELECT|WITH|INSERT|UPDATE|DELETE) /;

export class PreparedNames {
  /** Text → name, least recently used first (a Map keeps insertion order; a hit moves it last). */
  private readonly names = new Map<string, string>();
  private readonly seen = new Set<string>();
  private retired: string[] = [];
  private sequence = 0;

  constructor(private readonly max: number) {}

  /** The name to run `text` under on this session, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined) {
      this.names.delete(text);
      this.names.set(text, name);
      return name;
    }
    if (this.max === 0 || !PREPARABLE.test(text)) return undefined;
    if (!this.seen.has(text)) {
      if (this.seen.size >= MAX_SEEN) this.seen.clear();
      this.seen.add(text);
      return undefined;
    }
    this.seen.delete(text);
    if (this.names.size >= this.max) {
      const [oldest, oldestName] = this.names.entries().next().value!;
      this.names.delete(oldest);
      this.retired.push(oldestName);
    }
    const fresh = `cms_${++this.sequence}`;
    this.names.set(text, fresh);
    return fresh;
  }

  /**
   * `text`'s statement failed in a way that may be the statement's own (a table changed under it:
   * "cached plan must not change result type"): its next run is prepared afresh, under a new name.
   */
  forget(text: string): void {
    const name = this.names.get(text);
    if (name === undefined) return;
    this.names.delete(text);
    this.retired.push(name);
  }

  /** The names retired since the last call, to deallocate on the session (with its next named statement). */
  takeRetired(): readonly string[] {
    if (this.retired.length === 0) return NONE;
    const taken = this.retired;
    this.retired = [];
    return taken;
  }

  /** How many names the session holds. */
  get size(): number {
    return this.names.size;
  }
}

const NONE: readonly string[] = [];

/** SQLSTATEs after which a named statement is prepared again rather than reused. */
export function staleStatement(code: string | undefined): boolean {
  // 0A000: the cached plan's result type changed; 26000: no such prepared statement; 42…: the
  // tables or columns it names changed.
  return code === '0A000' || code === '26000' || (code !== undefined && code.startsWith('42'));
}

/** Whether running the same text unnamed can succeed where the named statement failed. */
export function replanned(code: string | undefined): boolean {
  return code === '0A000' || code === '26000';
}
