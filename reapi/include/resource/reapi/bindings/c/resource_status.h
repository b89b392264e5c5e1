/* resource_status_t of the reapi_cli C API (spec/reapi.md §2). */
#ifndef RQ_REAPI_RESOURCE_STATUS_H
#define RQ_REAPI_RESOURCE_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum resource_status_t { RESOURCE_UP = 0, RESOURCE_DOWN = 1 } resource_status_t;

#ifdef __cplusplus
}
#endif

#endif /* RQ_REAPI_RESOURCE_STATUS_H */
