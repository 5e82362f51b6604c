import { buildAll, generatedFiles } from "./build-steps.ts";

buildAll();
for (const file of Object.values(generatedFiles)) console.log(`wrote ${file}`);
