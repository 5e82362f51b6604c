import addFormatsModule, { type FormatsPlugin } from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const formatsModule = addFormatsModule as unknown as FormatsPlugin & { default?: FormatsPlugin };

/** ajv-formats' plugin: `addFormats(ajv)` adds its formats, `addFormats.get(name)` reads one. */
export const addFormats: FormatsPlugin = formatsModule.default ?? formatsModule;
