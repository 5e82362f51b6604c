import { ChainInputError } from "../../../src/chain/index.ts";

/** What a chain input check rejected, read from the `ChainInputError` that `run` throws. */
export function rejection(run: () => unknown): { field: string; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ChainInputError)
      return { field: error.field, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a ChainInputError");
}
