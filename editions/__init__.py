"""Rule files and card data of the editions, shipped with the compiler."""
