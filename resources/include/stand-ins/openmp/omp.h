/* cuda-advisor stand-in for <omp.h>: the OpenMP runtime API, declarations
 * only.
 *
 * Host code of CUDA projects often includes <omp.h>. GCC finds its own in its
 * private directory; Clang finds one only when libomp-dev is installed.
 * cuda-advisor adds this directory with -idirafter, behind every real include
 * directory, so a real omp.h always wins. The compile command's -fopenmp
 * becomes -D_OPENMP=201511: code under #ifdef _OPENMP is parsed, the pragmas
 * are not (loops stay plain loops for the checks).
 */
#ifndef CUDA_ADVISOR_STAND_IN_OMP_H
#define CUDA_ADVISOR_STAND_IN_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct omp_lock_t { void *_lk; } omp_lock_t;
typedef struct omp_nest_lock_t { void *_lk; } omp_nest_lock_t;
typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4
} omp_sched_t;
typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_master = 2,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4
} omp_proc_bind_t;
typedef unsigned long long omp_uintptr_t;
typedef omp_uintptr_t omp_allocator_handle_t;
typedef omp_uintptr_t omp_memspace_handle_t;

void omp_set_num_threads(int);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int);
int omp_get_dynamic(void);
void omp_set_nested(int);
int omp_get_nested(void);
int omp_get_cancellation(void);
void omp_set_schedule(omp_sched_t, int);
void omp_get_schedule(omp_sched_t *, int *);
int omp_get_thread_limit(void);
void omp_set_max_active_levels(int);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int);
int omp_get_team_size(int);
int omp_get_active_level(void);
int omp_in_final(void);
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num(void);
void omp_set_default_device(int);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
int omp_get_max_task_priority(void);
int omp_get_device_num(void);

void omp_init_lock(omp_lock_t *);
void omp_destroy_lock(omp_lock_t *);
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int omp_test_lock(omp_lock_t *);
void omp_init_nest_lock(omp_nest_lock_t *);
void omp_destroy_nest_lock(omp_nest_lock_t *);
void omp_set_nest_lock(omp_nest_lock_t *);
void omp_unset_nest_lock(omp_nest_lock_t *);
int omp_test_nest_lock(omp_nest_lock_t *);

double omp_get_wtime(void);
double omp_get_wtick(void);

void *omp_target_alloc(__SIZE_TYPE__, int);
void omp_target_free(void *, int);
int omp_target_is_present(const void *, int);
int omp_target_memcpy(void *, const void *, __SIZE_TYPE__, __SIZE_TYPE__, __SIZE_TYPE__, int,
                      int);
void *omp_alloc(__SIZE_TYPE__, omp_allocator_handle_t);
void omp_free(void *, omp_allocator_handle_t);

#ifdef __cplusplus
}
#endif

#endif
