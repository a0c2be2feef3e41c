import { errors, multi, nameParam, pagingQuery, str } from './schema-parts.js';

const tags = ['data'];
export const datasetSchemas = {
  put: {
    tags, summary: 'Create or update a data set',
    description: 'Body: application/json `{data: [records], columns: {name: metadata}, missingValues: [texts]}` or a bare array of records, or text/csv (header line first; streamed). Rows with a key or timestamp matching a stored row overwrite it; others are appended. `missingValues` sets the data set\'s markers for a missing value (cells reading one are missing in column types, statistics and sessions; the rows keep them). 201 + Location (created or updated, as the original answered).',
    params: nameParam('Data set name'),
    querystring: { type: 'object', properties: { timestampColumn: str('CSV: the timestamp column'), missingValues: multi('CSV: the data set\'s markers for a missing value (repeated or comma-separated)') } },
    response: errors,
  },
  list: {
    tags, summary: 'List data sets',
    querystring: { type: 'object', properties: { partialName: str('Substring of the name'), sortBy: str('dataSetName, dataSetSize, rowCount, dateCreated or lastModified'), sortOrder: str('asc or desc'), ...pagingQuery } },
    response: errors,
  },
  get: {
    tags, summary: 'Read a data set (rows as strings); Accept: text/csv gives CSV',
    params: nameParam('Data set name'),
    querystring: { type: 'object', properties: { startDate: str('First timestamp'), endDate: str('Last timestamp'), include: multi('Columns to include (repeated or comma-separated)'), formatDates: str('true: timestamps in ISO 8601'), ...pagingQuery } },
    response: errors,
  },
  stats: {
    tags, summary: 'Column statistics: counts, min/max/mean/median/mode, variance and a distribution per column (or of one column)',
    querystring: { type: 'object', properties: { dataType: str('Compute as this data type (e.g. numeric) instead of the stored one') } },
    response: errors,
  },
  delete: {
    tags, summary: 'Delete a data set, or only rows in a date range or with given keys',
    params: nameParam('Data set name'),
    querystring: { type: 'object', properties: { startDate: str('Delete rows from this timestamp'), endDate: str('Delete rows up to this timestamp'), keys: multi('Keys of rows to delete (repeated or comma-separated)'), startKey: str('First key'), endKey: str('Last key'), cascade: multi('Also delete: session, model (repeated or comma-separated)') } },
    response: errors,
  },
};
