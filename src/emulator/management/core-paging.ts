import type { Ctx } from '../http-kit';
import { coreError, INT32_MAX, parseWhole } from './replies';

export interface CorePaging {
  /** 0 means "no paging": the plain array form. */
  page: number;
  perPage: number;
  search: string | null;
}

/**
 * page (0 or 1..2147483647, default 0) and perPage (5..1000, default 1000), as /videolibrary and
 * /pullzone take them. On a bad value it answers 400 ApiErrorData and returns null.
 */
export function readCorePaging(ctx: Ctx): CorePaging | null {
  const rawPage = ctx.query.get('page');
  let page = 0;
  if (rawPage !== null && rawPage.trim() !== '') {
    const n = parseWhole(rawPage.trim());
    if (n === null || n < 0 || n > INT32_MAX) {
      coreError(
        ctx,
        400,
        'validation.invalid_parameter',
        'page',
        `page must be a whole number from 1 to ${INT32_MAX} (or 0 / left out for the plain list), got "${rawPage.slice(0, 40)}"`,
      );
      return null;
    }
    page = n;
  }
  const rawPerPage = ctx.query.get('perPage');
  let perPage = 1000;
  if (rawPerPage !== null && rawPerPage.trim() !== '') {
    const n = parseWhole(rawPerPage.trim());
    if (n === null || n < 5 || n > 1000) {
      coreError(ctx, 400, 'validation.invalid_parameter', 'perPage', `perPage must be a whole number from 5 to 1000, got "${rawPerPage.slice(0, 40)}"`);
      return null;
    }
    perPage = n;
  }
  const search = ctx.query.get('search');
  return { page, perPage, search: search && search.trim() !== '' ? search.trim().toLowerCase() : null };
}

/** page 0 -> plain array of everything; page >= 1 -> {Items, CurrentPage, TotalItems, HasMoreItems}. */
export function sendCoreList<T>(ctx: Ctx, paging: CorePaging, all: T[]): void {
  if (paging.page === 0) return ctx.send(200, all);
  const start = (paging.page - 1) * paging.perPage;
  ctx.send(200, {
    Items: start < all.length ? all.slice(start, start + paging.perPage) : [],
    CurrentPage: paging.page,
    TotalItems: all.length,
    HasMoreItems: start + paging.perPage < all.length,
  });
}
