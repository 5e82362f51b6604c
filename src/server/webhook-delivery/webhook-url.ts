/** Why a text cannot be a webhook endpoint URL, in words for an error message; undefined when it can. */
export function describeWebhookUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be an absolute http or https URL, such as https://shop.example.com/webhooks";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `must use http or https, got ${url.protocol.slice(0, -1)}`;
  }
  // Credentials in the URL would be sent to the receiver and shown in every listing.
  if (url.username !== "" || url.password !== "") return "must not contain credentials (user:password@)";
  if (url.hash !== "") return "must not contain a fragment (#...)";
  return undefined;
}
