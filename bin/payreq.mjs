#!/usr/bin/env node
// The `payreq` command's entry before it became bin/payreq.cjs. Bin links already made for a
// checkout still point here: npx keeps the links it made for a directory by its path and never
// renews them (npm/cli#9766), and `npm link` keeps its own. Not packed: an install links afresh.
import "./payreq.cjs";
