/* One chunkhash_bao_outboard call per (size, group) for callgrind. */
#include <chunkhash.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    size_t size = (size_t)strtoull(argv[1], NULL, 10);
    uint32_t group_log = (uint32_t)atoi(argv[2]);
    uint8_t *data = malloc(size);
    for (size_t i = 0; i < size; i++) data[i] = (uint8_t)(i * 2654435761u >> 24);
    chunkhash_bao_tree *tree;
    uint64_t len;
    chunkhash_bao_tree_new(group_log, &tree);
    chunkhash_bao_outboard_size(tree, size, &len);
    uint8_t root[32], *out = malloc(len);
    chunkhash_status s = chunkhash_bao_outboard(tree, data, size, CHUNKHASH_BAO_ORDER_PRE, root, 32, out, len);
    printf("%d %02x\n", s, root[0]);
    chunkhash_bao_tree_free(tree);
    free(out);
    free(data);
    return s;
}
