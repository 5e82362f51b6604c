// A bare Express server answering recorded bodies: the ceiling the reference server is measured against.
import express from "express";

const [portArgument, answersJson] = process.argv.slice(2);
const answers = JSON.parse(answersJson ?? "{}") as Record<string, { status: number; body: string }>;

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
for (const [route, answer] of Object.entries(answers)) {
  const [method, target] = route.split(" ") as [string, string];
  const path = target.split("?")[0] as string;
  const handle: express.RequestHandler = (_req, res) => {
    res.status(answer.status).type("application/json").send(answer.body);
  };
  if (method === "GET") app.get(path, handle);
  else app.post(path, express.json(), handle);
}
app.listen(Number(portArgument), "127.0.0.1");
