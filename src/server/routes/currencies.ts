import { Router } from "express";
import type { ConversionRoutesFilter } from "../domain/conversion.ts";
import { listConversionRoutes } from "../domain/conversion.ts";
import { type CurrencyFilters, listCurrencies } from "../domain/currencies.ts";
import { invalidField } from "../problems.ts";

export function currenciesRouter(): Router {
  const router = Router();

  router.get("/v1/currencies", (req, res) => {
    res.json(listCurrencies(req.query as CurrencyFilters));
  });

  router.get("/v1/currencies/:currencyId/conversion-routes", (req, res) => {
    const { network, networks } = req.query as { network?: string; networks?: string };
    if (network !== undefined && networks !== undefined) {
      throw invalidField("/query/networks", "cannot be sent together with network; send one or the other");
    }
    const filter: ConversionRoutesFilter =
      network !== undefined
        ? { kind: "network", network }
        : networks !== undefined
          ? { kind: "networks", networks: networks.split(",") }
          : { kind: "none" };
    res.json(listConversionRoutes(req.params.currencyId, filter));
  });

  return router;
}
