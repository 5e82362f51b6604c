import type { Format } from "ajv";
import { dateTimeFormat } from "./date-time-format.ts";
import { uriFormat } from "./uri-format.ts";

/**
 * Formats checked by functions of our own instead of ajv-formats' full ones, which they accept
 * and refuse alike: cheaper for hostile or first values. Every Ajv of the project that adds
 * ajv-formats adds these after it, in their place: the server's validators and the contract
 * suite's schema validator.
 */
export const formatOverrides: Readonly<Record<string, Format>> = {
  "date-time": dateTimeFormat,
  uri: uriFormat,
};
