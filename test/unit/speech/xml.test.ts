import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseXml, XmlSyntaxError, type XmlElement, type XmlText } from '../../../src/speech/xml.ts';

test('xml: elements, attributes, entities, CDATA and comments', () => {
  const root = parseXml(`<?xml version="1.0"?><!-- c --><a x='1' y="&lt;&#65;&#x42;">t&amp;u<b/><![CDATA[<raw>]]><!-- in --></a>`);
  assert.equal(root.name, 'a');
  assert.deepEqual(root.attributes, { x: '1', y: '<AB' });
  const texts = root.children.filter((c): c is XmlText => c.kind === 'text').map((t) => t.text);
  assert.deepEqual(texts, ['t&u', '<raw>']);
  assert.equal((root.children[1] as XmlElement).name, 'b');
});

test('xml: each text character keeps its UTF-8 byte range in the source', () => {
  const source = '<s>é&amp;😀x</s>';
  const bytes = Buffer.from(source);
  const text = parseXml(source).children[0] as XmlText;
  assert.equal(text.text, 'é&😀x');
  assert.deepEqual(
    [0, 1, 2, 4].map((i) => bytes.subarray(text.starts[i], text.ends[i]).toString()),
    ['é', '&amp;', '😀', 'x'],
  );
  const el = parseXml(source);
  assert.deepEqual([el.start, el.end], [0, bytes.length]);
});

test('xml: malformed input is rejected', () => {
  const bad = [
    '<a>',
    '<a></b>',
    '<a>x &unknown; y</a>',
    '<a>x & y</a>',
    '<a x=1/>',
    '<a x="1" x="2"/>',
    '<a/>trailing',
    'text<a/>',
    '<a><b></a></b>',
    '<a x="<"/>',
    '<!DOCTYPE a><a/>',
    '<a><!-- bad -- comment --></a>',
    '<a>&#0;</a>',
    '',
  ];
  for (const source of bad) assert.throws(() => parseXml(source), XmlSyntaxError, source);
});
