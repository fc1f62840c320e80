// The build (bundle/bundle.go) turns a .css import into its minified text.
declare module '*.css' {
  const css: string;
  export default css;
}

interface Window {
  svcWidget?: { open(): void; close(): void; apply(settings: object): void };
}

// The bundler (bundle/bundle.go) provides the embed.* messages of svc's i18n catalog.
declare module 'svc:catalog' {
  const catalog: Record<'tr' | 'en' | 'de', Record<string, string>>;
  export default catalog;
}
