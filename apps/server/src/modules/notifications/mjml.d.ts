// mjml 5 ships no types; the one call the notification mails make (ADR 0088).
declare module 'mjml' {
  interface MjmlResult {
    html: string;
    errors: { message: string; formattedMessage: string }[];
  }
  const mjml2html: (
    mjml: string,
    options?: { validationLevel?: 'strict' | 'soft' | 'skip'; minify?: boolean },
  ) => MjmlResult | Promise<MjmlResult>;
  export default mjml2html;
}
