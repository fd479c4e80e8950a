/**
 * The `serve` token arrives in the URL fragment (`#token=…`): fragments are never sent to a server
 * or put in a Referer. It is kept in sessionStorage (this tab only, survives a reload) and removed
 * from the address bar so it does not end up in screenshots or bookmarks.
 */
const KEY = 'cni-doctor.token';

export function takeToken(
  loc: Pick<Location, 'hash' | 'pathname' | 'search'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  replace: (url: string) => void,
): string | undefined {
  const m = /(?:^#|&)token=([A-Za-z0-9_-]{16,128})(?:&|$)/.exec(loc.hash);
  if (m?.[1]) {
    storage.setItem(KEY, m[1]);
    replace(`${loc.pathname}${loc.search}`);
    return m[1];
  }
  return storage.getItem(KEY) ?? undefined;
}
