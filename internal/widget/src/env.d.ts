// The build (bundle/bundle.go) turns a .css import into its minified text.
declare module '*.css' {
  const css: string;
  export default css;
}

interface Window {
  svcWidget?: { open(): void; close(): void };
}
