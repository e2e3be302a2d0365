"""`charnel serve`: the compiled databases in Datasette, the static site beside them."""
