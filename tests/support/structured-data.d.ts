/**
 * The parts of Adobe's structured-data validator (schema.org types as Google's rich results require
 * them) and the extractor it reads from, as tests/integration/seo-pages.test.ts uses them; neither ships
 * types.
 */
declare module '@marbec/web-auto-extractor' {
  export default class WebAutoExtractor {
    constructor(options?: { addLocation?: boolean; embedSource?: ('rdfa' | 'microdata')[] });
    parse(html: string): { jsonld: Record<string, Record<string, unknown>[]>; errors: unknown[] };
  }
}

declare module '@adobe/structured-data-validator' {
  export interface StructuredDataIssue {
    rootType: string;
    issueMessage: string;
    severity: 'ERROR' | 'WARNING';
    fieldNames: string[];
  }
  export default class Validator {
    constructor(schemaOrgJson?: unknown);
    /** Handlers per schema.org type, each a dynamic import of a validator class. */
    registeredHandlers: Record<string, (() => Promise<unknown>)[]>;
    validate(extracted: unknown): Promise<StructuredDataIssue[]>;
  }
}
