import { principalMismatch } from '../../lib/runtime/messages';

// The runtime's resume refusals, pinned once here; spec/runtime/resume.spec.ts asserts codes and
// which builder case a refusal is.
describe('runtime messages', () => {
  it('a principal mismatch says whether no principal, an unexpected one or another one was given', () => {
    const call = 'runtime: resume: call "c" in thread "t"';
    expect(principalMismatch('t', 'c', true, false).message).toBe(
      `${call} was suspended by a turn with a principal, and this resume gives none; pass { principal } as the turn did (the call stays waiting)`,
    );
    expect(principalMismatch('t', 'c', false, true).message).toBe(
      `${call} was suspended by a turn without a principal, and this resume gives one; resume without { principal } (the call stays waiting)`,
    );
    expect(principalMismatch('t', 'c', true, true).message).toBe(
      `${call} waits for another principal's answer; answer as the principal of the turn that suspended it (the call stays waiting)`,
    );
    expect(principalMismatch('t', 'c', true, false).code).toBe('ERR_PRINCIPAL_MISMATCH');
  });
});
