import { describe, expect, it } from 'vitest';
import { objectsFromHnsCall } from './hnscall-json';

describe('objectsFromHnsCall: HNS v1 answers as collect.ps1 passes them through', () => {
  it('a list, a single object, an empty answer', () => {
    expect(objectsFromHnsCall('{"Success":true,"Output":[{"ID":"a"},{"ID":"b"}]}').objects).toEqual(
      [{ ID: 'a' }, { ID: 'b' }],
    );
    expect(objectsFromHnsCall('{"Output":{"ID":"a"},"Success":true}').objects).toEqual([
      { ID: 'a' },
    ]);
    expect(objectsFromHnsCall('{"Success":true}')).toEqual({ objects: [], problems: [] });
  });

  it("HNS's failure envelope is an error with its code, not an empty list", () => {
    expect(
      objectsFromHnsCall('{"Success":false,"Error":"Element not found.","ErrorCode":2147943568}'),
    ).toEqual({ objects: [], error: 'Element not found. (error code 2147943568)', problems: [] });
  });

  it('untrusted text: not JSON, not an object, entries that are not objects', () => {
    expect(objectsFromHnsCall('{"Success":tr').problems[0]).toMatch(/^not JSON/);
    expect(objectsFromHnsCall('[1,2]').problems).toEqual(['not an HNS answer (no object)']);
    const mixed = objectsFromHnsCall('{"Success":true,"Output":[{"ID":"a"},3,null,"x"]}');
    expect(mixed.objects).toEqual([{ ID: 'a' }]);
    expect(mixed.problems).toEqual(['3 entries ignored (not objects)']);
  });
});
