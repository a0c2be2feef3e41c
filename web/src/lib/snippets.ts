/** Code a user can paste to call a model's predict endpoint with their own columns (pure; unit-tested). */

export type Example = Record<string, string>;

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlSnippet(baseUrl: string, modelId: string, example: Example): string {
  const body = JSON.stringify({ data: [example] }, null, 2);
  return [
    `curl -X POST ${shellQuote(`${baseUrl}/v1/models/${modelId}/predict`)} \\`,
    `  -H "api-key: $SIBYL_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

/** The original service's JavaScript client (npm `nexosis-api-client`), pointed at this server. */
export function nexosisClientSnippet(baseUrl: string, modelId: string, example: Example): string {
  const record = JSON.stringify(example, null, 2).replace(/\n/g, '\n  ');
  return [
    `// npm install nexosis-api-client   (on Node 18+ run with NODE_OPTIONS=--no-experimental-fetch)`,
    `const NexosisClient = require('nexosis-api-client').default;`,
    ``,
    `const client = new NexosisClient({`,
    `  key: process.env.SIBYL_API_KEY,`,
    `  endpoint: ${JSON.stringify(`${baseUrl}/v1`)},`,
    `});`,
    ``,
    `client.Models.predict(${JSON.stringify(modelId)}, [`,
    `  ${record},`,
    `]).then((result) => console.log(result.data));`,
  ].join('\n');
}
