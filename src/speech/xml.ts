import { concatMapped, mapVerbatim, utf8Offsets, type MappedText } from './mapped-text.ts';

export interface XmlElement {
  kind: 'element';
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  /** UTF-8 byte range of the whole element, start tag to end tag. */
  start: number;
  end: number;
}

export interface XmlText extends MappedText {
  kind: 'text';
}

export type XmlNode = XmlElement | XmlText;

/** Thrown for input that is not well-formed XML; `position` is a UTF-16 index into the source. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at character ${position}`);
  }
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const SPACE = /[ \t\r\n]*/y;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * A small strict XML parser (elements, attributes, text, the five predefined and numeric entities, CDATA,
 * comments, processing instructions; no DTD), keeping each text character's UTF-8 byte range in the source.
 */
export function parseXml(source: string): XmlElement {
  const offsets = utf8Offsets(source);
  let pos = 0;

  const fail = (message: string, at = pos): never => {
    throw new XmlSyntaxError(message, at);
  };
  const skipSpace = () => {
    SPACE.lastIndex = pos;
    SPACE.exec(source);
    pos = SPACE.lastIndex;
  };
  const readName = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(source);
    if (!m) return fail('expected a name');
    pos = NAME.lastIndex;
    return m[0];
  };
  const expect = (s: string) => {
    if (!source.startsWith(s, pos)) fail(`expected "${s}"`);
    pos += s.length;
  };
  const skipUntil = (terminator: string, what: string): number => {
    const end = source.indexOf(terminator, pos);
    if (end < 0) fail(`unterminated ${what}`);
    const start = pos;
    pos = end + terminator.length;
    return start;
  };

  /** Decodes the entity at `pos` (which is at '&'). */
  const readEntity = (): string => {
    const end = source.indexOf(';', pos);
    if (end < 0 || end - pos > 12) fail('malformed entity reference');
    const body = source.slice(pos + 1, end);
    let value: string | undefined = PREDEFINED[body];
    const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
    if (numeric) {
      const code = numeric[1] ? parseInt(numeric[1], 16) : parseInt(numeric[2], 10);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) fail('invalid character reference');
      value = String.fromCodePoint(code);
    }
    if (value === undefined) fail(`unknown entity "&${body};"`);
    pos = end + 1;
    return value!;
  };

  /** Skips comments and processing instructions; returns false at anything else. */
  const skipMisc = (): boolean => {
    if (source.startsWith('<!--', pos)) {
      pos += 4;
      const start = skipUntil('-->', 'comment');
      if (source.slice(start, pos - 3).includes('--')) fail('"--" inside a comment', start);
      return true;
    }
    if (source.startsWith('<?', pos)) {
      pos += 2;
      readName();
      skipUntil('?>', 'processing instruction');
      return true;
    }
    if (source.startsWith('<!DOCTYPE', pos)) fail('DTDs are not supported');
    return false;
  };

  const readAttributes = (): Record<string, string> => {
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = pos;
      skipSpace();
      if (source[pos] === '>' || source.startsWith('/>', pos) || pos >= source.length) return attributes;
      if (pos === before) fail('expected whitespace before an attribute');
      const name = readName();
      skipSpace();
      expect('=');
      skipSpace();
      const quote = source[pos];
      if (quote !== '"' && quote !== "'") fail('expected a quoted attribute value');
      pos++;
      let value = '';
      while (source[pos] !== quote) {
        if (pos >= source.length) fail('unterminated attribute value');
        if (source[pos] === '<') fail('"<" in an attribute value');
        if (source[pos] === '&') value += readEntity();
        else value += source[pos++];
      }
      pos++;
      if (Object.hasOwn(attributes, name)) fail(`duplicate attribute "${name}"`, before);
      attributes[name] = value;
    }
  };

  const readText = (): XmlText => {
    const parts: MappedText[] = [];
    while (pos < source.length && source[pos] !== '<') {
      if (source[pos] === '&') {
        const start = pos;
        const value = readEntity();
        const chars = [...value].flatMap((c) => (c.length === 2 ? [0, 1] : [0]));
        parts.push({ text: value, starts: chars.map(() => offsets[start]), ends: chars.map(() => offsets[pos]) });
      } else {
        const start = pos;
        while (pos < source.length && source[pos] !== '<' && source[pos] !== '&') pos++;
        if (source.slice(start, pos).includes(']]>')) fail('"]]>" in text', start);
        parts.push(mapVerbatim(source, offsets, start, pos));
      }
    }
    return { kind: 'text', ...concatMapped(parts) };
  };

  const readElement = (): XmlElement => {
    const start = pos;
    expect('<');
    const name = readName();
    const attributes = readAttributes();
    const element: XmlElement = { kind: 'element', name, attributes, children: [], start: offsets[start], end: 0 };
    if (source.startsWith('/>', pos)) {
      pos += 2;
      element.end = offsets[pos];
      return element;
    }
    expect('>');
    for (;;) {
      if (pos >= source.length) fail(`unclosed element <${name}>`);
      if (source.startsWith('</', pos)) {
        pos += 2;
        const closing = readName();
        if (closing !== name) fail(`</${closing}> does not close <${name}>`);
        skipSpace();
        expect('>');
        element.end = offsets[pos];
        return element;
      }
      if (source.startsWith('<![CDATA[', pos)) {
        pos += 9;
        const start = skipUntil(']]>', 'CDATA section');
        element.children.push({ kind: 'text', ...mapVerbatim(source, offsets, start, pos - 3) });
      } else if (skipMisc()) continue;
      else if (source[pos] === '<') element.children.push(readElement());
      else element.children.push(readText());
    }
  };

  if (source.charCodeAt(0) === 0xfeff) pos = 1;
  for (;;) {
    skipSpace();
    if (!skipMisc()) break;
  }
  if (source[pos] !== '<') fail('expected the root element');
  const root = readElement();
  for (;;) {
    skipSpace();
    if (pos >= source.length) return root;
    if (!skipMisc()) fail('content after the root element');
  }
}
