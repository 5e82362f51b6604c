/** The `<meta name>` that carries the page's public client ID from the server to the script. */
export const clientIdMetaName = "payreq-client-id";
