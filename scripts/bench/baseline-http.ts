// A bare node:http server answering recorded bodies: the floor under every framework.
import { createServer } from "node:http";

const [portArgument, answersJson] = process.argv.slice(2);
const answers = JSON.parse(answersJson ?? "{}") as Record<string, { status: number; body: string }>;
const byRoute = new Map(
  Object.entries(answers).map(([route, answer]) => {
    const [method, target] = route.split(" ") as [string, string];
    return [`${method} ${target.split("?")[0]}`, answer];
  }),
);

createServer((req, res) => {
  const answer = byRoute.get(`${req.method} ${(req.url ?? "").split("?")[0]}`);
  // Read the body as Express would, then answer.
  req.resume();
  req.on("end", () => {
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8" }).end(answer.body);
  });
}).listen(Number(portArgument), "127.0.0.1");
