/** The punycode package's ES module, which ships without types: the one function the URL rule uses. */
declare module "punycode/punycode.es6.js" {
  export function decode(input: string): string;
}
