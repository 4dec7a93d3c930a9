import 'reflect-metadata';
import { Tool } from '../../lib/decorators';
import { scanToolset } from '../../lib/container/scanner';

describe('scanToolset', () => {
  class Base {
    @Tool({ name: 'base_tool' })
    inherited(): string {
      return 'base';
    }
    @Tool({ name: 'overridden' })
    replaced(): string {
      return 'base';
    }
    @Tool({ name: 'dropped' })
    dropped(): string {
      return 'base';
    }
  }
  class Derived extends Base {
    @Tool({ name: 'overridden' })
    override replaced(): string {
      return 'derived';
    }
    override dropped(): string {
      return 'no longer a tool';
    }
    @Tool({ name: 'own' })
    own(): string {
      return 'own';
    }
    get accessor(): number {
      return 1;
    }
  }

  it('finds tools through the prototype chain, the most derived definition winning', () => {
    const found = scanToolset(Derived);
    expect(found.map((t) => [t.metadata.name, t.methodName]).sort()).toEqual([
      ['base_tool', 'inherited'],
      ['overridden', 'replaced'],
      ['own', 'own'],
    ]);
    expect(found.find((t) => t.methodName === 'replaced')?.method).toBe(Derived.prototype.replaced);
    expect(found.find((t) => t.methodName === 'inherited')?.prototype).toBe(Base.prototype);
  });

  it('treats an override without @Tool as no tool, and never reads accessors', () => {
    expect(scanToolset(Derived).map((t) => t.methodName)).not.toContain('dropped');
    expect(scanToolset(Derived).map((t) => t.methodName)).not.toContain('accessor');
  });

  it('caches one scan per class', () => {
    expect(scanToolset(Derived)).toBe(scanToolset(Derived));
    expect(scanToolset(Base)).not.toBe(scanToolset(Derived));
  });
});
