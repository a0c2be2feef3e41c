import type { FastifyRequest } from 'fastify';
import { Params } from './params.js';
import type { Page } from '../store/paging.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** page (zero-based, default 0) and pageSize (default 50, at most 1000) from the query. */
export function readPaging(p: Params): Page {
  const page = p.int('page', 0, 1_000_000) ?? 0;
  const size = p.int('pageSize', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
  return { page, size };
}

/** A page of rows with an optional time range and column choice, as data sets and views read them. */
export function readRowsQuery(p: Params): { page: Page; from: number | undefined; to: number | undefined; include: string[] } {
  return { page: readPaging(p), from: p.date('startDate'), to: p.date('endDate'), include: p.multi('include') };
}

export interface Link { rel: string; href: string }

export interface PagingFields {
  pageNumber: number;
  totalPages: number;
  pageSize: number;
  totalCount: number;
  links: Link[];
}

/** The URL of this request as clients see it (used for self links and Location headers). */
export function requestUrl(req: FastifyRequest): string {
  return `${baseUrl(req)}${req.url.replace(/^\/v1/i, '')}`;
}

/** https://host/v1 as the client addressed us, or SIBYL_PUBLIC_URL when configured. */
export function baseUrl(req: FastifyRequest): string {
  const configured = req.server.publicUrl;
  if (configured) return configured.replace(/\/+$/, '') + '/v1';
  return `${req.protocol}://${req.host}/v1`;
}

/**
 * Paging fields and links exactly as the original service wrote them: self = the request URL,
 * first/next/last = the request URL with `&page=N` appended (even when page is already there),
 * next only when there is a next page, no prev.
 */
export function pagingFields(req: FastifyRequest, page: Page, totalCount: number, extraLinks: Link[] = []): PagingFields {
  const totalPages = Math.ceil(totalCount / page.size);
  const self = requestUrl(req);
  const withPage = (n: number) => `${self}${self.includes('?') ? '&' : '?'}page=${n}`;
  const links: Link[] = [{ rel: 'self', href: self }, ...extraLinks, { rel: 'first', href: withPage(0) }];
  if (page.page + 1 < totalPages) links.push({ rel: 'next', href: withPage(page.page + 1) });
  if (totalPages > 0) links.push({ rel: 'last', href: withPage(totalPages - 1) });
  return { pageNumber: page.page, totalPages, pageSize: page.size, totalCount, links };
}
