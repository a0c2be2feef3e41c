import { useState, type ReactNode } from 'react';
import { Field, Pager } from './ui';

/**
 * Columns of a wide data set a page at a time, found by a part of their name: the data set page's
 * tables draw a row (or four controls) per column, and 2,000 columns drawn at once took seconds.
 */
export const COLUMNS_A_PAGE = 50;

export function useColumnPages(all: readonly string[]) {
  const [text, setText] = useState('');
  const [page, setPage] = useState(0);
  const wanted = text.trim().toLowerCase();
  const found = wanted ? all.filter((c) => c.toLowerCase().includes(wanted)) : all;
  const pages = Math.ceil(found.length / COLUMNS_A_PAGE);
  // A search that finds fewer columns than the page shown starts again from its first page.
  const at = Math.min(page, Math.max(0, pages - 1));
  return {
    all, text, search: text.trim(), found, page: at, pages, setPage,
    shown: found.slice(at * COLUMNS_A_PAGE, (at + 1) * COLUMNS_A_PAGE),
    setText: (s: string) => { setText(s); setPage(0); },
  };
}

export type ColumnPages = ReturnType<typeof useColumnPages>;

/** The search field over a paged table, shown only when the columns need more than one page. */
export function ColumnSearch({ pages, label, note }: { pages: ColumnPages; label: string; note?: ReactNode }) {
  if (pages.all.length <= COLUMNS_A_PAGE) return null;
  return (
    <Field label={label} type="search" value={pages.text} onChange={(e) => pages.setText(e.target.value)}
      hint={<>{pages.all.length.toLocaleString()} columns, {COLUMNS_A_PAGE} a page{pages.search ? `; ${pages.found.length.toLocaleString()} match` : ''}.{note ? <> {note}</> : null}</>} />
  );
}

/** What follows a paged table: the words for a search that found nothing, and the pager. */
export function ColumnPager({ pages, label }: { pages: ColumnPages; label: string }) {
  return (
    <>
      {pages.found.length === 0 && <p>No column's name contains “{pages.search}”.</p>}
      <Pager page={pages.page} totalPages={pages.pages} onPage={pages.setPage} label={label} />
    </>
  );
}
