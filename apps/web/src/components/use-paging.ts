import { useState } from 'react';

/**
 * Page state for a PagedTable: the page, the page size, and the props that wire them,
 * with the page reset to the first whenever the size changes. `slice` cuts one page out
 * of rows held in the client.
 */
export function usePaging(initialSize: number) {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(initialSize);
  return {
    page,
    rowsPerPage,
    setPage,
    slice: <Row>(rows: Row[]) => rows.slice(page * rowsPerPage, (page + 1) * rowsPerPage),
    props: {
      page,
      rowsPerPage,
      onPageChange: setPage,
      onRowsPerPageChange: (size: number) => {
        setRowsPerPage(size);
        setPage(0);
      },
    },
  };
}
