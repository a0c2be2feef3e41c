/**
 * JSON-schema pieces for the OpenAPI description. Parameters are typed loosely on purpose:
 * clients send names and values in many spellings (compat-notes §2.2), and the lenient reader
 * (api/params.ts) validates them and answers 400 RequestValidation naming each bad one.
 */
export const str = (description: string) => ({ type: 'string', description });

/** A query parameter clients may repeat (`include=a&include=b`) as well as send once. */
export const multi = (description: string) => ({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description });

export const pagingQuery = {
  page: str('Zero-based page number (default 0)'),
  pageSize: str('Items per page (default 50, at most 1000)'),
};

export const errorResponse = {
  type: 'object',
  description: 'Error',
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    errorType: { type: 'string' },
    errorDetails: { type: 'object', additionalProperties: true },
  },
};

export const errors = { '4XX': errorResponse, '5XX': errorResponse };

export const nameParam = (what: string) => ({ type: 'object', properties: { name: str(what) } });
