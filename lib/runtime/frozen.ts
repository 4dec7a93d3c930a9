/**
 * One way to build the runtime's frozen records and outcomes from another object and more members.
 * @internal
 */

/**
 * `Object.freeze({ ...base, ...members })`, copied with Object.assign. In V8 11.3 (Node 20), members
 * added to an object after a spread of another take a slow path: a settled outcome written
 * `{ ...identity, kind, replayed, toolOutcome, rendered }` cost about 5 µs, and every call of a turn
 * built several such objects; this costs about 0.1 µs. For objects the runtime built itself
 * only: Object.assign sets members (a `__proto__` member would set the prototype, an accessor of
 * `base` is read), which for plain data members without that name is what a spread does.
 * @internal
 */
export function frozenWith<B extends object, M extends object>(base: B, members: M): Readonly<B & M> {
  return Object.freeze(Object.assign({}, base, members));
}
