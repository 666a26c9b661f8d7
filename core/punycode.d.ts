/** The punycode package's ES module, which ships without types: the functions the URL and domain rules use. */
declare module "punycode/punycode.es6.js" {
  export function decode(input: string): string;
  export function toUnicode(input: string): string;
}
