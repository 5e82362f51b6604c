/** The `tsc` of TypeScript 7, the native compiler (package alias typescript-native), by its path. */
export declare const nativeTypeScriptCompiler: string;
