import * as assert from 'node:assert/strict';
import { boundedJson } from '../../../../src/core/service/jsonText';
import { isEventStream, mediaTypeOf } from '../../../../src/core/net/mediaType';

describe('bounded JSON text and media types', () => {
  it('writes what JSON.stringify writes while within the limits, on one line or indented', () => {
    const value = { a: [1, 'two', null, true, { b: 'é🚀"\\' }], c: {}, d: [], e: undefined, f: Number.NaN };
    assert.equal(boundedJson(value), JSON.stringify(value));
    assert.equal(boundedJson(value, { indent: 2 }), JSON.stringify(value, null, 2));
    assert.equal(boundedJson([undefined, () => 1]), JSON.stringify([undefined, () => 1]));
    assert.equal(boundedJson(undefined), undefined);
  });

  it('cuts a value nested past the depth limit instead of overflowing the stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) {
      deep = i % 2 ? [deep] : { k: deep };
    }
    assert.throws(() => JSON.stringify(deep), RangeError);
    const text = boundedJson(deep, { maxDepth: 3 });
    assert.equal(text, '[{"k":[{…}]}]', 'three levels, then the fourth elided');
  });

  it('stops at the character limit and says so with …', () => {
    const text = boundedJson({ list: Array.from({ length: 1000 }, (_, i) => i) }, { maxChars: 50 });
    assert.equal(text?.length, 51);
    assert.ok(text?.startsWith('{"list":[0,1,2,'));
    assert.ok(text?.endsWith('…'));
  });

  it('compares media types without regard to case or parameters', () => {
    assert.equal(mediaTypeOf(' Text/Event-Stream ; charset=UTF-8'), 'text/event-stream');
    assert.equal(mediaTypeOf(undefined), '');
    assert.ok(isEventStream('TEXT/EVENT-STREAM'));
    assert.ok(!isEventStream('text/event-streams'));
    assert.ok(!isEventStream('application/json; note="text/event-stream"'));
  });
});
