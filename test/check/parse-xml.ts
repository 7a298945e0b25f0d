/**
 * A small, strict reader of the XML `toJUnitXml` writes, so the test can tell that a CI would
 * parse it: a declaration, elements with quoted attributes, text with only the five named entities,
 * every tag closed in order. Throws on anything else.
 */

/** An element: its name, attributes, children and text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.-]*';
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  if (/[<]/.test(text)) throw new SyntaxError(`a raw < in ${JSON.stringify(text.slice(0, 40))}`);
  return text.replace(/&([^;]*);|&/g, (match, name: string | undefined) => {
    const value = name === undefined ? undefined : ENTITIES[name];
    if (value === undefined) throw new SyntaxError(`a bad entity ${match}`);
    return value;
  });
}

/** The document element of `xml`. */
export function parseXml(xml: string): XmlElement {
  let rest = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}="[^"]*")*)\\s*(/?)>`);
  while (rest !== '') {
    const lt = rest.indexOf('<');
    const text = lt < 0 ? rest : rest.slice(0, lt);
    stack.at(-1)!.text += decode(text);
    if (lt < 0) break;
    rest = rest.slice(lt);
    const match = tag.exec(rest);
    if (!match) throw new SyntaxError(`a malformed tag at ${JSON.stringify(rest.slice(0, 40))}`);
    const [whole, closing, name = '', attributeText = '', selfClosing] = match;
    rest = rest.slice(whole.length);
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name) throw new SyntaxError(`</${name}> closes <${open?.name}>`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key = '', value = ''] of attributeText.matchAll(
      new RegExp(`(${NAME})="([^"]*)"`, 'g'),
    ))
      attributes[key] = decode(value);
    const element: XmlElement = { name, attributes, children: [], text: '' };
    stack.at(-1)!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) throw new SyntaxError(`<${stack.at(-1)!.name}> is never closed`);
  if (root.children.length !== 1 || root.text.trim() !== '')
    throw new SyntaxError('a document has exactly one element');
  return root.children[0]!;
}

/** Every element named `name` below `element`, in document order. */
export function elementsNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [
    ...(child.name === name ? [child] : []),
    ...elementsNamed(child, name),
  ]);
}
