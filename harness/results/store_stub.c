/* Placeholder: the result-set store is implemented with the analysis commands. */
