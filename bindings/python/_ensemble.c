/* _ensemble.c -- the CPython extension under the Python package 'ensemble'
 * (bindings/python/ensemble/__init__.py): each function calls the ens_*
 * function of the same name in libensemble.so, so the protocol, the port
 * table, --check-protocol and --timeout are the C library's.  A buffer is
 * anything with the buffer protocol (a NumPy array, bytearray, array.array,
 * memoryview); its format gives the MPI datatype and its length the count,
 * here in C, so a send costs one call.  Misuse the C library sees stops the
 * application as in C; what only Python sees (not a buffer, a read-only
 * buffer to receive into, a format MPI has no type for) raises TypeError or
 * ValueError before any MPI call. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ensemble.h>

/* Where the process is with libensemble. */
static enum { ST_BEFORE, ST_RUNNING, ST_FINALIZED } state = ST_BEFORE;

/* mpi4py's MPI.Intracomm.f2py, for the communicators handed out. */
static PyObject	*comm_f2py;

static PyTypeObject	 StatusType;
static PyTypeObject	 RequestType;
static PyTypeObject	 SelfType;
static PyTypeObject	 PortType;

/* A buffer borrowed from a Python object, with its MPI type and count. */
struct pybuf {
	Py_buffer	 view;
	int		 held;
	MPI_Datatype	 dt;
	int		 count;
};

/* ensemble.Status: what a receive filled in. */
typedef struct {
	PyObject_HEAD
	int		 count;
	int		 port;
	PyObject	*type;
	int		 source;
	int		 tag;
} StatusObject;

/* ensemble.Request: a started non-blocking call and the buffer it holds. */
typedef struct {
	PyObject_HEAD
	MPI_Request	 req;
	struct pybuf	 buf;
} RequestObject;

/* The MPI type of one element of a struct-module format code, native
 * sizes; MPI_DATATYPE_NULL when there is none. */
static MPI_Datatype
native_type(const char *f)
{
	if (f[0] == 'Z' && f[1] != '\0' && f[2] == '\0')
		switch (f[1]) {
		case 'f': return MPI_C_FLOAT_COMPLEX;
		case 'd': return MPI_C_DOUBLE_COMPLEX;
		case 'g': return MPI_C_LONG_DOUBLE_COMPLEX;
		default: return MPI_DATATYPE_NULL;
		}
	if (f[0] == '\0' || f[1] != '\0')
		return MPI_DATATYPE_NULL;
	switch (f[0]) {
	case 'c': return MPI_CHAR;
	case 'b': return MPI_SIGNED_CHAR;
	case 'B': return MPI_UNSIGNED_CHAR;
	case '?': return MPI_C_BOOL;
	case 'h': return MPI_SHORT;
	case 'H': return MPI_UNSIGNED_SHORT;
	case 'i': return MPI_INT;
	case 'I': return MPI_UNSIGNED;
	case 'l': return MPI_LONG;
	case 'L': return MPI_UNSIGNED_LONG;
	case 'q': return MPI_LONG_LONG;
	case 'Q': return MPI_UNSIGNED_LONG_LONG;
	case 'n': return sizeof(Py_ssize_t) == 8 ? MPI_INT64_T : MPI_INT32_T;
	case 'N': return sizeof(size_t) == 8 ? MPI_UINT64_T : MPI_UINT32_T;
	case 'f': return MPI_FLOAT;
	case 'd': return MPI_DOUBLE;
	case 'g': return MPI_LONG_DOUBLE;
	default: return MPI_DATATYPE_NULL;
	}
}

/* The same for the standard sizes of '=', '<', '>' and '!' formats, in
 * this machine's byte order. */
static MPI_Datatype
standard_type(const char *f, Py_ssize_t size)
{
	if (f[0] == 'Z' && f[1] != '\0' && f[2] == '\0')
		return f[1] == 'f' ? MPI_C_FLOAT_COMPLEX :
		    f[1] == 'd' ? MPI_C_DOUBLE_COMPLEX : MPI_DATATYPE_NULL;
	if (f[0] == '\0' || f[1] != '\0')
		return MPI_DATATYPE_NULL;
	switch (f[0]) {
	case 'c': return MPI_CHAR;
	case '?': return MPI_C_BOOL;
	case 'f': return MPI_FLOAT;
	case 'd': return MPI_DOUBLE;
	case 'b': case 'h': case 'i': case 'l': case 'q':
		return size == 1 ? MPI_INT8_T : size == 2 ? MPI_INT16_T :
		    size == 4 ? MPI_INT32_T : size == 8 ? MPI_INT64_T :
		    MPI_DATATYPE_NULL;
	case 'B': case 'H': case 'I': case 'L': case 'Q':
		return size == 1 ? MPI_UINT8_T : size == 2 ? MPI_UINT16_T :
		    size == 4 ? MPI_UINT32_T : size == 8 ? MPI_UINT64_T :
		    MPI_DATATYPE_NULL;
	default: return MPI_DATATYPE_NULL;
	}
}

/* The MPI type of a buffer's format (NULL: bytes); MPI_DATATYPE_NULL and
 * a TypeError when MPI has none. */
static MPI_Datatype
format_type(const char *fmt, Py_ssize_t itemsize)
{
	const int	 little = 1;
	const char	*f = fmt != NULL ? fmt : "B";
	MPI_Datatype	 dt;
	int		 native = *(const char *)&little == 1 ? '<' : '>';

	switch (f[0]) {
	case '@':
		dt = native_type(f + 1);
		break;
	case '=':
		dt = standard_type(f + 1, itemsize);
		break;
	case '<':
	case '>':
	case '!':
		if ((f[0] == '!' ? '>' : f[0]) != native) {
			PyErr_Format(PyExc_TypeError, "buffer of format '%s' is "
			    "not in this machine's byte order", f);
			return MPI_DATATYPE_NULL;
		}
		dt = standard_type(f + 1, itemsize);
		break;
	default:
		dt = native_type(f);
		break;
	}
	if (dt == MPI_DATATYPE_NULL)
		PyErr_Format(PyExc_TypeError, "no MPI datatype for a buffer of "
		    "format '%s' (give one: (buf, datatype))", f);
	return dt;
}

/* An mpi4py object's MPI handle, through its Fortran handle: a Datatype or
 * an Op.  -1 and an exception when it has none. */
static int
fhandle(PyObject *o, MPI_Fint *out)
{
	PyObject	*r;
	long		 v;

	if ((r = PyObject_CallMethod(o, "py2f", NULL)) == NULL)
		return -1;
	v = PyLong_AsLong(r);
	Py_DECREF(r);
	if (v == -1 && PyErr_Occurred())
		return -1;
	*out = (MPI_Fint)v;
	return 0;
}

/* Borrow obj's memory into b (writable for receiving): a buffer, or a
 * pair (buffer, mpi4py Datatype).  None gives an empty buffer when
 * allow_none.  0, or -1 with an exception. */
static int
get_buf(PyObject *obj, int writable, int allow_none, struct pybuf *b)
{
	PyObject	*spec = NULL;
	Py_ssize_t	 n;
	MPI_Fint	 f;
	int		 size;

	b->held = 0;
	b->count = 0;
	b->dt = MPI_BYTE;
	if (obj == Py_None && allow_none)
		return 0;
	if ((PyTuple_CheckExact(obj) || PyList_CheckExact(obj)) &&
	    PySequence_Fast_GET_SIZE(obj) == 2) {
		spec = PySequence_Fast_GET_ITEM(obj, 1);
		obj = PySequence_Fast_GET_ITEM(obj, 0);
	}
	if (PyObject_GetBuffer(obj, &b->view, PyBUF_ANY_CONTIGUOUS | PyBUF_FORMAT |
	    (writable ? PyBUF_WRITABLE : 0)) != 0)
		return -1;
	b->held = 1;
	if (spec != NULL) {
		if (fhandle(spec, &f) != 0)
			goto fail;
		b->dt = MPI_Type_f2c(f);
		if (b->dt == MPI_DATATYPE_NULL || MPI_Type_size(b->dt, &size) !=
		    MPI_SUCCESS || size <= 0) {
			PyErr_SetString(PyExc_TypeError, "not an MPI datatype of "
			    "positive size");
			goto fail;
		}
		n = b->view.len / size;
		if (n * size != b->view.len) {
			PyErr_Format(PyExc_ValueError, "a buffer of %zd bytes "
			    "does not hold whole elements of %d bytes",
			    b->view.len, size);
			goto fail;
		}
	} else {
		if ((b->dt = format_type(b->view.format, b->view.itemsize)) ==
		    MPI_DATATYPE_NULL)
			goto fail;
		n = b->view.itemsize > 0 ? b->view.len / b->view.itemsize : 0;
	}
	if (n > INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "more than INT_MAX elements");
		goto fail;
	}
	b->count = (int)n;
	return 0;
fail:
	PyBuffer_Release(&b->view);
	b->held = 0;
	return -1;
}

/* Give a borrowed buffer back (again is harmless). */
static void
put_buf(struct pybuf *b)
{
	if (b->held)
		PyBuffer_Release(&b->view);
	b->held = 0;
}

/* The address of a borrowed buffer (NULL for an empty one). */
static void *
buf_ptr(const struct pybuf *b)
{
	return b->held ? b->view.buf : NULL;
}

/* A port type argument: a str, or None when allow_none (any port). */
static int
get_type(PyObject *o, int allow_none, const char **out)
{
	if (o == Py_None && allow_none) {
		*out = NULL;
		return 0;
	}
	if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "a port type must be a str, not %s",
		    Py_TYPE(o)->tp_name);
		return -1;
	}
	return (*out = PyUnicode_AsUTF8(o)) == NULL ? -1 : 0;
}

/* A port index argument. */
static int
get_index(PyObject *o, int *out)
{
	long	v = PyLong_AsLong(o);

	if (v == -1 && PyErr_Occurred())
		return -1;
	if (v < INT_MIN || v > INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "port index out of range");
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* A root argument: a process's name as in the script. */
static int
get_root(PyObject *o, const char **out)
{
	if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "a root must be a process name "
		    "(str), not %s", Py_TYPE(o)->tp_name);
		return -1;
	}
	return (*out = PyUnicode_AsUTF8(o)) == NULL ? -1 : 0;
}

/* Check a fast call's argument count. */
static int
nargs(const char *fn, Py_ssize_t n, Py_ssize_t lo, Py_ssize_t hi)
{
	if (n >= lo && n <= hi)
		return 0;
	if (lo == hi)
		PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)",
		    fn, lo, n);
	else
		PyErr_Format(PyExc_TypeError, "%s() takes %zd to %zd arguments "
		    "(%zd given)", fn, lo, hi, n);
	return -1;
}

/* The package's functions need ens_init first (the C library would say so
 * too, but it needs MPI up to say it). */
static int
need_running(const char *fn)
{
	if (state == ST_RUNNING)
		return 0;
	PyErr_Format(PyExc_RuntimeError, "ensemble.%s: called %s", fn,
	    state == ST_BEFORE ? "before ensemble.init()" :
	    "after ensemble.finalize()");
	return -1;
}

/* Fill a Status from an MPI_Status of a message of type dt. */
static void
fill_status(StatusObject *s, const MPI_Status *st, MPI_Datatype dt)
{
	const char	*type = NULL;
	PyObject	*t;
	int		 n = 0;

	if (MPI_Get_count(st, dt, &n) != MPI_SUCCESS)
		n = MPI_UNDEFINED;
	s->count = n;
	s->port = ens_port_of(st, &type);
	t = type != NULL ? PyUnicode_FromString(type) : Py_NewRef(Py_None);
	if (t == NULL) {
		PyErr_Clear();
		t = Py_NewRef(Py_None);
	}
	Py_XSETREF(s->type, t);
	s->source = st->MPI_SOURCE;
	s->tag = st->MPI_TAG;
}

/* A status argument: None, or an ensemble.Status to fill. */
static int
get_status(PyObject *o, StatusObject **out)
{
	if (o == NULL || o == Py_None) {
		*out = NULL;
		return 0;
	}
	if (!PyObject_TypeCheck(o, &StatusType)) {
		PyErr_Format(PyExc_TypeError, "status must be an ensemble.Status "
		    "or None, not %s", Py_TYPE(o)->tp_name);
		return -1;
	}
	*out = (StatusObject *)o;
	return 0;
}

/*
 * Starting and ending.
 */

/* At exit(): a process that ends with status 0 and has not finalized does
 * so now; one that fails keeps out of ens_finalize (which waits for every
 * other process), so the run names it as C's exit without ens_finalize. */
static void
at_exit(int status, void *arg)
{
	(void)arg;
	if (state == ST_RUNNING && status == 0) {
		state = ST_FINALIZED;
		ens_finalize();
	}
}

/* Make libmpi and what it loaded global, as MPI_Init of mpi4py does:
 * Open MPI's plugins and ens_init's own lookup of Open MPI find their
 * symbols there, and Python loaded this module with RTLD_LOCAL. */
static void
mpi_global(void)
{
	Dl_info	info;

	if (dladdr((void *)MPI_Init, &info) != 0 && info.dli_fname != NULL)
		(void)dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

PyDoc_STRVAR(init_doc,
"_init($module, argv, finalize_at_exit, /)\n--\n\n"
"ens_init with these arguments; finalize at exit() when asked.");

/* _init(argv, finalize_at_exit): ens_init, then finalize at exit() with
 * status 0 when asked (the package's init() decides). */
static PyObject *
py_init(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	static char	**argv;
	static int	  argc;
	PyObject	 *seq, *b;
	Py_ssize_t	  i, len;
	int		  at;

	(void)self;
	if (nargs("_init", n, 2, 2) != 0)
		return NULL;
	if (state != ST_BEFORE) {
		PyErr_SetString(PyExc_RuntimeError, "ensemble.init: called twice");
		return NULL;
	}
	if ((at = PyObject_IsTrue(args[1])) < 0)
		return NULL;
	if ((seq = PySequence_Fast(args[0], "argv must be a sequence")) == NULL)
		return NULL;
	len = PySequence_Fast_GET_SIZE(seq);
	/* Kept for the life of the process: MPI may hold on to them. */
	if ((argv = calloc((size_t)len + 1, sizeof(*argv))) == NULL) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	for (i = 0; i < len; i++) {
		if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &b)) {
			Py_DECREF(seq);
			return NULL;
		}
		argv[i] = strdup(PyBytes_AS_STRING(b));
		Py_DECREF(b);
		if (argv[i] == NULL) {
			Py_DECREF(seq);
			return PyErr_NoMemory();
		}
	}
	Py_DECREF(seq);
	argc = (int)len;
	mpi_global();
	Py_BEGIN_ALLOW_THREADS
	ens_init(&argc, &argv);
	Py_END_ALLOW_THREADS
	state = ST_RUNNING;
	if (at)
		on_exit(at_exit, NULL);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(finalize_doc,
"finalize($module, /)\n--\n\n"
"Write this process's part of the trace (--trace), then finalize MPI\n(ens_finalize).\n\n"
"Complete every request first; no ensemble or MPI call may follow.  A\n"
"component that does not call it is finalized when it exits with status\n"
"0; one that ends by an exception or a non-zero sys.exit() is not, and\n"
"'ensemble run' reports it as failed.");

static PyObject *
py_finalize(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	if (need_running("finalize") != 0)
		return NULL;
	state = ST_FINALIZED;
	Py_BEGIN_ALLOW_THREADS
	ens_finalize();
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

PyDoc_STRVAR(running_doc,
"_running($module, /)\n--\n\n"
"True between init() and finalize().");

static PyObject *
py_running(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return PyBool_FromLong(state == ST_RUNNING);
}

/*
 * The interface.
 */

PyDoc_STRVAR(ports_doc,
"ports($module, type, /)\n--\n\n"
"The number of ports of this type the process has (0: none).\n\n"
"type must be one of the component's port types, as the script's\n"
"Components line lists them.");

static PyObject *
py_ports(PyObject *self, PyObject *arg)
{
	const char	*type;

	(void)self;
	if (need_running("ports") != 0 || get_type(arg, 0, &type) != 0)
		return NULL;
	return PyLong_FromLong(ens_ports(type));
}

PyDoc_STRVAR(self_doc,
"self($module, /)\n--\n\n"
"Who this process is: an ensemble.Self (name, component, index, rank,\n"
"nprocs, indexed), as ens_self() says.");

static PyObject *
py_self(PyObject *mod, PyObject *unused)
{
	const ens_self_t	*s;
	PyObject		*r;

	(void)mod;
	(void)unused;
	if (need_running("self") != 0)
		return NULL;
	s = ens_self();
	if ((r = PyStructSequence_New(&SelfType)) == NULL)
		return NULL;
	PyStructSequence_SET_ITEM(r, 0, PyUnicode_FromString(s->name));
	PyStructSequence_SET_ITEM(r, 1, PyUnicode_FromString(s->component));
	PyStructSequence_SET_ITEM(r, 2, PyLong_FromLong(s->index));
	PyStructSequence_SET_ITEM(r, 3, PyLong_FromLong(s->rank));
	PyStructSequence_SET_ITEM(r, 4, PyLong_FromLong(s->nprocs));
	PyStructSequence_SET_ITEM(r, 5, PyBool_FromLong(s->indexed));
	if (PyErr_Occurred()) {
		Py_DECREF(r);
		return NULL;
	}
	return r;
}

PyDoc_STRVAR(param_doc,
"param($module, name, /)\n--\n\n"
"A script parameter's value as a str ('rounds' -> '10'), or the process's\n"
"k-th argument from the script's 'args' when name is '1', '2', ...;\n"
"None when there is none.");

static PyObject *
py_param(PyObject *self, PyObject *arg)
{
	const char	*name, *v;

	(void)self;
	if (need_running("param") != 0)
		return NULL;
	if (!PyUnicode_Check(arg)) {
		PyErr_Format(PyExc_TypeError, "a parameter name must be a str, "
		    "not %s", Py_TYPE(arg)->tp_name);
		return NULL;
	}
	if ((name = PyUnicode_AsUTF8(arg)) == NULL)
		return NULL;
	if ((v = ens_param(name)) == NULL)
		Py_RETURN_NONE;
	return PyUnicode_DecodeFSDefault(v);
}

/* An mpi4py Intracomm of c (not owned: mpi4py never frees it). */
static PyObject *
to_mpi4py(MPI_Comm c)
{
	return PyObject_CallFunction(comm_f2py, "i", (int)MPI_Comm_c2f(c));
}

PyDoc_STRVAR(port_doc,
"port($module, type, index, /)\n--\n\n"
"A port as MPI sees it, for mpi4py called directly: an ensemble.Port\n"
"(comm, rank, tag, recv_tag).  comm is an mpi4py Intracomm holding every\n"
"process (a duplicate of MPI_COMM_WORLD; do not free it); send to the\n"
"peer with comm.Send(buf, rank, tag) and receive from it with\n"
"comm.Recv(buf, rank, recv_tag).  Such traffic is not followed by\n"
"--check-protocol nor seen by --timeout.");

static PyObject *
py_port(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	const char	*type;
	ens_port_t	 p;
	PyObject	*r;
	int		 index;

	(void)self;
	if (nargs("port", n, 2, 2) != 0 || need_running("port") != 0 ||
	    get_type(args[0], 0, &type) != 0 || get_index(args[1], &index) != 0)
		return NULL;
	p = ens_port(type, index);
	if ((r = PyStructSequence_New(&PortType)) == NULL)
		return NULL;
	PyStructSequence_SET_ITEM(r, 0, to_mpi4py(p.comm));
	PyStructSequence_SET_ITEM(r, 1, PyLong_FromLong(p.rank));
	PyStructSequence_SET_ITEM(r, 2, PyLong_FromLong(p.tag));
	PyStructSequence_SET_ITEM(r, 3, PyLong_FromLong(p.recv_tag));
	if (PyErr_Occurred()) {
		Py_DECREF(r);
		return NULL;
	}
	return r;
}

PyDoc_STRVAR(comm_component_doc,
"comm_component($module, /)\n--\n\n"
"An mpi4py Intracomm of the processes of this process's component, ranked\n"
"by index (ens_comm_component), for MPI inside a component.  Its traffic\n"
"never meets the ports'; do not free it.  Valid until finalize().");

PyDoc_STRVAR(comm_group_doc,
"comm_group($module, name, index=0, /)\n--\n\n"
"The communicator of a group of the script this process is in, as an\n"
"mpi4py Intracomm (ens_comm_group): comm_group('rows', 2) for rows[2],\n"
"comm_group('workers'); ranks in the order the script lists its members.\n"
"A component's name gives its processes, by index.  Do not free it.");

static PyObject *
py_comm_group(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	const char	*name;
	long		 k = 0;

	(void)self;
	if (nargs("comm_group", n, 1, 2) != 0 || need_running("comm_group") != 0)
		return NULL;
	if (!PyUnicode_Check(args[0])) {
		PyErr_Format(PyExc_TypeError, "ensemble.comm_group: a group's "
		    "name is a str, not %s", Py_TYPE(args[0])->tp_name);
		return NULL;
	}
	if ((name = PyUnicode_AsUTF8(args[0])) == NULL)
		return NULL;
	if (n == 2 && (((k = PyLong_AsLong(args[1])) == -1 && PyErr_Occurred()) ||
	    k < INT_MIN || k > INT_MAX)) {
		PyErr_Clear();
		PyErr_SetString(PyExc_ValueError, "ensemble.comm_group: the index "
		    "is not an int");
		return NULL;
	}
	return to_mpi4py(ens_comm_group(name, (int)k));
}

static PyObject *
py_comm_component(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	if (need_running("comm_component") != 0)
		return NULL;
	return to_mpi4py(ens_comm_component());
}

/*
 * Point to point.
 */

typedef void (*sendfn)(const char *, int, const void *, int, MPI_Datatype);

/* send, ssend, bsend: (type, index, buf). */
static PyObject *
do_send(const char *fn, sendfn f, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 b;
	const char	*type;
	int		 index;

	if (nargs(fn, n, 3, 3) != 0 || need_running(fn) != 0 ||
	    get_type(args[0], 0, &type) != 0 || get_index(args[1], &index) != 0 ||
	    get_buf(args[2], 0, 0, &b) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	f(type, index, b.view.buf, b.count, b.dt);
	Py_END_ALLOW_THREADS
	put_buf(&b);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(send_doc,
"send($module, type, index, buf, /)\n--\n\n"
"Send buf on port type[index] in standard mode (ens_send).\n\n"
"buf is anything with the buffer protocol, contiguous: a NumPy array,\n"
"bytes, bytearray, array.array, memoryview; its format gives the MPI\n"
"datatype ('i' MPI_INT, 'd' MPI_DOUBLE, 'B' MPI_UNSIGNED_CHAR, ...) and\n"
"its length the count.  (buf, datatype), with an mpi4py Datatype, sends\n"
"buf's bytes as whole elements of that type.");

static PyObject *
py_send(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_send("send", ens_send, args, n);
}

PyDoc_STRVAR(ssend_doc,
"ssend($module, type, index, buf, /)\n--\n\n"
"Send buf on port type[index] in synchronous mode (ens_ssend): it returns\n"
"once the peer has started to receive it.");

static PyObject *
py_ssend(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_send("ssend", ens_ssend, args, n);
}

PyDoc_STRVAR(bsend_doc,
"bsend($module, type, index, buf, /)\n--\n\n"
"Send buf on port type[index] in buffered mode (ens_bsend): it returns at\n"
"once; libensemble attaches and grows the buffer itself.");

static PyObject *
py_bsend(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_send("bsend", ens_bsend, args, n);
}

PyDoc_STRVAR(recv_doc,
"recv($module, type, index, buf, status=None, /)\n--\n\n"
"Receive one message on port type[index] into buf (ens_recv): at most\n"
"buf's length, in elements of its format's datatype.  With an\n"
"ensemble.Status, fill it (ens_recv_status): its count says how many\n"
"elements came, its port and type by which port.");

static PyObject *
py_recv(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 b;
	StatusObject	*s;
	MPI_Status	 st;
	const char	*type;
	int		 index;

	(void)self;
	if (nargs("recv", n, 3, 4) != 0 || need_running("recv") != 0 ||
	    get_type(args[0], 0, &type) != 0 || get_index(args[1], &index) != 0 ||
	    get_status(n > 3 ? args[3] : NULL, &s) != 0 ||
	    get_buf(args[2], 1, 0, &b) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	if (s == NULL)
		ens_recv(type, index, b.view.buf, b.count, b.dt);
	else
		ens_recv_status(type, index, b.view.buf, b.count, b.dt, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL)
		fill_status(s, &st, b.dt);
	put_buf(&b);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(recv_any_doc,
"recv_any($module, type, buf, status=None, /)\n--\n\n"
"Receive one message into buf from whichever port of this type has one\n"
"(type None: any port), and return that port's index (ens_recv_any;\n"
"with type None, the index within its own type).  With an\n"
"ensemble.Status, fill it: count, port and type.");

static PyObject *
py_recv_any(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 b;
	StatusObject	*s;
	MPI_Status	 st;
	const char	*type;
	int		 k;

	(void)self;
	if (nargs("recv_any", n, 2, 3) != 0 || need_running("recv_any") != 0 ||
	    get_type(args[0], 1, &type) != 0 ||
	    get_status(n > 2 ? args[2] : NULL, &s) != 0 ||
	    get_buf(args[1], 1, 0, &b) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	if (s == NULL)
		k = ens_recv_any(type, b.view.buf, b.count, b.dt);
	else
		k = ens_recv_any_status(type, b.view.buf, b.count, b.dt, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL)
		fill_status(s, &st, b.dt);
	put_buf(&b);
	return PyLong_FromLong(k);
}

/*
 * Non-blocking.
 */

typedef void (*isendfn)(const char *, int, const void *, int, MPI_Datatype,
    MPI_Request *);

/* A new Request holding b (taken over). */
static RequestObject *
new_request(struct pybuf *b)
{
	RequestObject	*r;

	if ((r = PyObject_New(RequestObject, &RequestType)) == NULL) {
		put_buf(b);
		return NULL;
	}
	r->req = MPI_REQUEST_NULL;
	r->buf = *b;
	return r;
}

/* isend, issend, ibsend, irecv: (type, index, buf). */
static PyObject *
do_istart(const char *fn, isendfn f, int writable, PyObject *const *args,
    Py_ssize_t n)
{
	struct pybuf	 b;
	RequestObject	*r;
	const char	*type;
	int		 index;

	if (nargs(fn, n, 3, 3) != 0 || need_running(fn) != 0 ||
	    get_type(args[0], 0, &type) != 0 || get_index(args[1], &index) != 0 ||
	    get_buf(args[2], writable, 0, &b) != 0)
		return NULL;
	if ((r = new_request(&b)) == NULL)
		return NULL;
	f(type, index, r->buf.view.buf, r->buf.count, r->buf.dt, &r->req);
	return (PyObject *)r;
}

PyDoc_STRVAR(isend_doc,
"isend($module, type, index, buf, /)\n--\n\n"
"Start a standard-mode send of buf on port type[index] (ens_isend) and\n"
"return its ensemble.Request; leave buf alone until waitall() completes\n"
"it.");

static PyObject *
py_isend(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_istart("isend", ens_isend, 0, args, n);
}

PyDoc_STRVAR(issend_doc,
"issend($module, type, index, buf, /)\n--\n\n"
"Start a synchronous send (ens_issend); returns an ensemble.Request.");

static PyObject *
py_issend(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_istart("issend", ens_issend, 0, args, n);
}

PyDoc_STRVAR(ibsend_doc,
"ibsend($module, type, index, buf, /)\n--\n\n"
"Start a buffered send (ens_ibsend); returns an ensemble.Request.");

static PyObject *
py_ibsend(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_istart("ibsend", ens_ibsend, 0, args, n);
}

/* ens_irecv with the signature of the sends, for do_istart. */
static void
irecv_fn(const char *type, int index, const void *buf, int count, MPI_Datatype dt,
    MPI_Request *r)
{
	ens_irecv(type, index, (void *)buf, count, dt, r);
}

PyDoc_STRVAR(irecv_doc,
"irecv($module, type, index, buf, /)\n--\n\n"
"Start a receive into buf on port type[index] (ens_irecv); returns an\n"
"ensemble.Request.");

static PyObject *
py_irecv(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_istart("irecv", irecv_fn, 1, args, n);
}

PyDoc_STRVAR(irecv_any_doc,
"irecv_any($module, type, buf, /)\n--\n\n"
"Start a receive into buf from any port (ens_irecv_any): type None, or a\n"
"type that holds every connected port of the process.  Returns an\n"
"ensemble.Request; waitall()'s statuses say which port the message took.");

static PyObject *
py_irecv_any(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 b;
	RequestObject	*r;
	const char	*type;

	(void)self;
	if (nargs("irecv_any", n, 2, 2) != 0 || need_running("irecv_any") != 0 ||
	    get_type(args[0], 1, &type) != 0 || get_buf(args[1], 1, 0, &b) != 0)
		return NULL;
	if ((r = new_request(&b)) == NULL)
		return NULL;
	ens_irecv_any(type, r->buf.view.buf, r->buf.count, r->buf.dt, &r->req);
	return (PyObject *)r;
}

PyDoc_STRVAR(waitall_doc,
"waitall($module, requests, statuses=None, /)\n--\n\n"
"Complete every request of the sequence (ens_waitall) and release their\n"
"buffers.  With a list as statuses (ens_waitall_status), its contents\n"
"become one ensemble.Status per request: a receive's count, port and\n"
"type; a send's port is 0.");

static PyObject *
py_waitall(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	PyObject	*seq = NULL, *out = NULL, *list = NULL, *ret = NULL;
	MPI_Request	*reqs = NULL;
	MPI_Status	*sts = NULL;
	RequestObject	*r;
	Py_ssize_t	 len, i;

	(void)self;
	if (nargs("waitall", n, 1, 2) != 0 || need_running("waitall") != 0)
		return NULL;
	if (n > 1 && args[1] != Py_None) {
		if (!PyList_Check(args[1])) {
			PyErr_SetString(PyExc_TypeError, "statuses must be a list "
			    "or None");
			return NULL;
		}
		out = args[1];
	}
	if ((seq = PySequence_Fast(args[0], "requests must be a sequence")) == NULL)
		return NULL;
	len = PySequence_Fast_GET_SIZE(seq);
	if (len > INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "too many requests");
		goto out;
	}
	for (i = 0; i < len; i++)
		if (!PyObject_TypeCheck(PySequence_Fast_GET_ITEM(seq, i),
		    &RequestType)) {
			PyErr_Format(PyExc_TypeError, "requests[%zd] is not an "
			    "ensemble.Request", i);
			goto out;
		}
	reqs = PyMem_Malloc(((size_t)len + 1) * sizeof(*reqs));
	sts = PyMem_Malloc(((size_t)len + 1) * sizeof(*sts));
	if (reqs == NULL || sts == NULL) {
		PyErr_NoMemory();
		goto out;
	}
	for (i = 0; i < len; i++) {
		Py_ssize_t	j;

		reqs[i] = ((RequestObject *)PySequence_Fast_GET_ITEM(seq, i))->req;
		/* MPI may not be given one active request twice. */
		for (j = 0; j < i && reqs[i] != MPI_REQUEST_NULL; j++)
			if (PySequence_Fast_GET_ITEM(seq, j) ==
			    PySequence_Fast_GET_ITEM(seq, i)) {
				PyErr_Format(PyExc_ValueError, "requests[%zd] is "
				    "requests[%zd]", i, j);
				goto out;
			}
	}
	Py_BEGIN_ALLOW_THREADS
	if (out == NULL)
		ens_waitall((int)len, reqs);
	else
		ens_waitall_status((int)len, reqs, sts);
	Py_END_ALLOW_THREADS
	/* The handles first: a completed request's is MPI_REQUEST_NULL now,
	 * and its buffer is free to go, whatever fails below. */
	for (i = 0; i < len; i++) {
		r = (RequestObject *)PySequence_Fast_GET_ITEM(seq, i);
		r->req = reqs[i];
	}
	if (out != NULL) {
		if ((list = PyList_New(len)) == NULL)
			goto out;
		for (i = 0; i < len; i++) {
			StatusObject	*s = PyObject_New(StatusObject, &StatusType);

			if (s == NULL)
				goto out;
			r = (RequestObject *)PySequence_Fast_GET_ITEM(seq, i);
			s->type = NULL;
			fill_status(s, &sts[i], r->buf.dt);
			PyList_SET_ITEM(list, i, (PyObject *)s);
		}
		if (PyList_SetSlice(out, 0, PyList_GET_SIZE(out), list) != 0)
			goto out;
	}
	ret = Py_NewRef(Py_None);
out:
	for (i = 0; reqs != NULL && i < len; i++) {
		r = (RequestObject *)PySequence_Fast_GET_ITEM(seq, i);
		if (r->req == MPI_REQUEST_NULL)
			put_buf(&r->buf);
	}
	Py_XDECREF(list);
	PyMem_Free(sts);
	PyMem_Free(reqs);
	Py_DECREF(seq);
	return ret;
}

/* A Request argument (fn names the call in the error). */
static int
get_request(const char *fn, PyObject *o, RequestObject **out)
{
	if (!PyObject_TypeCheck(o, &RequestType)) {
		PyErr_Format(PyExc_TypeError, "%s: not an ensemble.Request: %s",
		    fn, Py_TYPE(o)->tp_name);
		return -1;
	}
	*out = (RequestObject *)o;
	return 0;
}

PyDoc_STRVAR(wait_doc,
"wait($module, request, status=None, /)\n--\n\n"
"Complete this one request (ens_wait) and release its buffer; with an\n"
"ensemble.Status, fill it.  Under --check-protocol it is the behaviour's\n"
"'wait r' (Request.wait() is a waitall of one).");

static PyObject *
py_wait(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	RequestObject	*r;
	StatusObject	*s;
	MPI_Status	 st;

	(void)self;
	if (nargs("wait", n, 1, 2) != 0 || need_running("wait") != 0 ||
	    get_request("wait", args[0], &r) != 0 ||
	    get_status(n > 1 ? args[1] : NULL, &s) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ens_wait(&r->req, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL)
		fill_status(s, &st, r->buf.dt);
	put_buf(&r->buf);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(test_doc,
"test($module, request, status=None, /)\n--\n\n"
"Complete the request if it can be (ens_test): True, its buffer released\n"
"and the ensemble.Status, if one is given, filled; else False.");

static PyObject *
py_test(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	RequestObject	*r;
	StatusObject	*s;
	MPI_Status	 st;
	int		 flag;

	(void)self;
	if (nargs("test", n, 1, 2) != 0 || need_running("test") != 0 ||
	    get_request("test", args[0], &r) != 0 ||
	    get_status(n > 1 ? args[1] : NULL, &s) != 0)
		return NULL;
	flag = ens_test(&r->req, &st);
	if (flag && s != NULL)
		fill_status(s, &st, r->buf.dt);
	if (flag)
		put_buf(&r->buf);
	return PyBool_FromLong(flag);
}

/* The requests of a sequence, their handles in a new *reqs (*len of them);
 * *seq a new reference to hold while they are used. */
static int
get_requests(const char *fn, PyObject *o, PyObject **seq, MPI_Request **reqs,
    Py_ssize_t *len)
{
	Py_ssize_t	i, j;

	*reqs = NULL;
	if ((*seq = PySequence_Fast(o, "requests must be a sequence")) == NULL)
		return -1;
	*len = PySequence_Fast_GET_SIZE(*seq);
	if (*len > INT_MAX) {
		PyErr_SetString(PyExc_OverflowError, "too many requests");
		goto bad;
	}
	if ((*reqs = PyMem_Malloc(((size_t)*len + 1) * sizeof(**reqs))) == NULL) {
		PyErr_NoMemory();
		goto bad;
	}
	for (i = 0; i < *len; i++) {
		RequestObject	*r;

		if (get_request(fn, PySequence_Fast_GET_ITEM(*seq, i), &r) != 0)
			goto bad;
		(*reqs)[i] = r->req;
		/* MPI may not be given one active request twice. */
		for (j = 0; j < i && r->req != MPI_REQUEST_NULL; j++)
			if (PySequence_Fast_GET_ITEM(*seq, j) == (PyObject *)r) {
				PyErr_Format(PyExc_ValueError, "requests[%zd] is "
				    "requests[%zd]", i, j);
				goto bad;
			}
	}
	return 0;
bad:
	PyMem_Free(*reqs);
	*reqs = NULL;
	Py_CLEAR(*seq);
	return -1;
}

/* After a call on the requests of seq: their handles back from reqs, the
 * buffers of the completed ones released. */
static void
put_requests(PyObject *seq, MPI_Request *reqs, Py_ssize_t len)
{
	Py_ssize_t	i;

	for (i = 0; i < len; i++) {
		RequestObject	*r = (RequestObject *)PySequence_Fast_GET_ITEM(seq, i);

		r->req = reqs[i];
		if (r->req == MPI_REQUEST_NULL)
			put_buf(&r->buf);
	}
	PyMem_Free(reqs);
	Py_DECREF(seq);
}

PyDoc_STRVAR(waitany_doc,
"waitany($module, requests, status=None, /)\n--\n\n"
"Complete one request of the sequence (ens_waitany) and return its index,\n"
"from 0; None when none is pending.  With an ensemble.Status, fill it.");

static PyObject *
py_waitany(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	PyObject	*seq;
	MPI_Request	*reqs;
	StatusObject	*s;
	MPI_Status	 st;
	Py_ssize_t	 len;
	int		 k;

	(void)self;
	if (nargs("waitany", n, 1, 2) != 0 || need_running("waitany") != 0 ||
	    get_status(n > 1 ? args[1] : NULL, &s) != 0 ||
	    get_requests("waitany", args[0], &seq, &reqs, &len) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	k = ens_waitany((int)len, reqs, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL && k != MPI_UNDEFINED)
		fill_status(s, &st, ((RequestObject *)PySequence_Fast_GET_ITEM(seq,
		    k))->buf.dt);
	put_requests(seq, reqs, len);
	if (k == MPI_UNDEFINED)
		Py_RETURN_NONE;
	return PyLong_FromLong(k);
}

PyDoc_STRVAR(waitsome_doc,
"waitsome($module, requests, statuses=None, /)\n--\n\n"
"Complete every request of the sequence that can be, at least one\n"
"(ens_waitsome), and return their indices, a list (empty when none is\n"
"pending).  With a list as statuses, its contents become their\n"
"ensemble.Status, in the same order.");

static PyObject *
py_waitsome(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	PyObject	*seq, *out = NULL, *idx = NULL, *list = NULL;
	MPI_Request	*reqs;
	MPI_Status	*sts;
	Py_ssize_t	 len;
	int		*ind, k, i;

	(void)self;
	if (nargs("waitsome", n, 1, 2) != 0 || need_running("waitsome") != 0)
		return NULL;
	if (n > 1 && args[1] != Py_None) {
		if (!PyList_Check(args[1])) {
			PyErr_SetString(PyExc_TypeError, "statuses must be a list "
			    "or None");
			return NULL;
		}
		out = args[1];
	}
	if (get_requests("waitsome", args[0], &seq, &reqs, &len) != 0)
		return NULL;
	ind = PyMem_Malloc(((size_t)len + 1) * sizeof(*ind));
	sts = PyMem_Malloc(((size_t)len + 1) * sizeof(*sts));
	if (ind == NULL || sts == NULL) {
		PyErr_NoMemory();
		PyMem_Free(ind);
		PyMem_Free(sts);
		put_requests(seq, reqs, len);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	k = ens_waitsome((int)len, reqs, ind, sts);
	Py_END_ALLOW_THREADS
	if (k == MPI_UNDEFINED)
		k = 0;
	if ((idx = PyList_New(k)) != NULL && out != NULL)
		list = PyList_New(k);
	for (i = 0; idx != NULL && i < k; i++) {
		PyObject	*v = PyLong_FromLong(ind[i]);

		if (v == NULL) {
			Py_CLEAR(idx);
			break;
		}
		PyList_SET_ITEM(idx, i, v);
		if (list != NULL) {
			StatusObject	*st = PyObject_New(StatusObject, &StatusType);

			if (st == NULL) {
				Py_CLEAR(idx);
				break;
			}
			st->type = NULL;
			fill_status(st, &sts[i], ((RequestObject *)
			    PySequence_Fast_GET_ITEM(seq, ind[i]))->buf.dt);
			PyList_SET_ITEM(list, i, (PyObject *)st);
		}
	}
	if (idx != NULL && out != NULL && (list == NULL ||
	    PyList_SetSlice(out, 0, PyList_GET_SIZE(out), list) != 0))
		Py_CLEAR(idx);
	Py_XDECREF(list);
	PyMem_Free(ind);
	PyMem_Free(sts);
	put_requests(seq, reqs, len);
	return idx;
}

PyDoc_STRVAR(sendrecv_doc,
"sendrecv($module, stype, sindex, sbuf, rtype, rindex, rbuf, status=None, /)\n--\n\n"
"Send sbuf on port stype[sindex] and receive into rbuf on port\n"
"rtype[rindex] at once (ens_sendrecv).  With an ensemble.Status, fill it\n"
"with the receive's count and port.");

static PyObject *
py_sendrecv(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 sb, rb;
	StatusObject	*s;
	MPI_Status	 st;
	const char	*stype, *rtype;
	int		 sindex, rindex;

	(void)self;
	if (nargs("sendrecv", n, 6, 7) != 0 || need_running("sendrecv") != 0 ||
	    get_type(args[0], 0, &stype) != 0 || get_index(args[1], &sindex) != 0 ||
	    get_type(args[3], 0, &rtype) != 0 || get_index(args[4], &rindex) != 0 ||
	    get_status(n > 6 ? args[6] : NULL, &s) != 0 ||
	    get_buf(args[2], 0, 0, &sb) != 0)
		return NULL;
	if (get_buf(args[5], 1, 0, &rb) != 0) {
		put_buf(&sb);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	ens_sendrecv(stype, sindex, sb.view.buf, sb.count, sb.dt, rtype, rindex,
	    rb.view.buf, rb.count, rb.dt, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL)
		fill_status(s, &st, rb.dt);
	put_buf(&sb);
	put_buf(&rb);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(sendrecv_replace_doc,
"sendrecv_replace($module, stype, sindex, rtype, rindex, buf, status=None, /)\n--\n\n"
"Send buf on port stype[sindex] and receive into it on rtype[rindex]\n"
"(ens_sendrecv_replace).  With an ensemble.Status, fill it.");

static PyObject *
py_sendrecv_replace(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 b;
	StatusObject	*s;
	MPI_Status	 st;
	const char	*stype, *rtype;
	int		 sindex, rindex;

	(void)self;
	if (nargs("sendrecv_replace", n, 5, 6) != 0 ||
	    need_running("sendrecv_replace") != 0 ||
	    get_type(args[0], 0, &stype) != 0 || get_index(args[1], &sindex) != 0 ||
	    get_type(args[2], 0, &rtype) != 0 || get_index(args[3], &rindex) != 0 ||
	    get_status(n > 5 ? args[5] : NULL, &s) != 0 ||
	    get_buf(args[4], 1, 0, &b) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ens_sendrecv_replace(stype, sindex, rtype, rindex, b.view.buf, b.count,
	    b.dt, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL)
		fill_status(s, &st, b.dt);
	put_buf(&b);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(probe_doc,
"probe($module, type, index, status=None, /)\n--\n\n"
"Wait until a message can be received on port type[index], without\n"
"receiving it (ens_probe).  With an ensemble.Status, fill it: its count\n"
"is the message's size in bytes.");

static PyObject *
py_probe(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	StatusObject	*s;
	MPI_Status	 st;
	const char	*type;
	int		 index;

	(void)self;
	if (nargs("probe", n, 2, 3) != 0 || need_running("probe") != 0 ||
	    get_type(args[0], 0, &type) != 0 || get_index(args[1], &index) != 0 ||
	    get_status(n > 2 ? args[2] : NULL, &s) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ens_probe(type, index, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL)
		fill_status(s, &st, MPI_BYTE);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(probe_any_doc,
"probe_any($module, type, status=None, /)\n--\n\n"
"Wait until a message can be received on a port of this type (None: any\n"
"port), without receiving it, and return that port's index\n"
"(ens_probe_any).  With an ensemble.Status, fill it (count in bytes).");

static PyObject *
py_probe_any(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	StatusObject	*s;
	MPI_Status	 st;
	const char	*type;
	int		 k;

	(void)self;
	if (nargs("probe_any", n, 1, 2) != 0 || need_running("probe_any") != 0 ||
	    get_type(args[0], 1, &type) != 0 ||
	    get_status(n > 1 ? args[1] : NULL, &s) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	k = ens_probe_any(type, &st);
	Py_END_ALLOW_THREADS
	if (s != NULL)
		fill_status(s, &st, MPI_BYTE);
	return PyLong_FromLong(k);
}

PyDoc_STRVAR(iprobe_doc,
"iprobe($module, type, index, status=None, /)\n--\n\n"
"Whether a message can be received on port type[index] now, without\n"
"waiting or receiving it (ens_iprobe).  When it can, an ensemble.Status\n"
"given is filled (count in bytes).");

static PyObject *
py_iprobe(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	StatusObject	*s;
	MPI_Status	 st;
	const char	*type;
	int		 index, flag;

	(void)self;
	if (nargs("iprobe", n, 2, 3) != 0 || need_running("iprobe") != 0 ||
	    get_type(args[0], 0, &type) != 0 || get_index(args[1], &index) != 0 ||
	    get_status(n > 2 ? args[2] : NULL, &s) != 0)
		return NULL;
	flag = ens_iprobe(type, index, &st);
	if (s != NULL && flag)
		fill_status(s, &st, MPI_BYTE);
	return PyBool_FromLong(flag);
}

PyDoc_STRVAR(iprobe_any_doc,
"iprobe_any($module, type, status=None, /)\n--\n\n"
"The index of a port of this type (None: any port) that has a message\n"
"now, 0 when none has (ens_iprobe_any); neither waits nor receives.  When\n"
"there is one, an ensemble.Status given is filled (count in bytes).");

static PyObject *
py_iprobe_any(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	StatusObject	*s;
	MPI_Status	 st;
	const char	*type;
	int		 port = 0;

	(void)self;
	if (nargs("iprobe_any", n, 1, 2) != 0 || need_running("iprobe_any") != 0 ||
	    get_type(args[0], 1, &type) != 0 ||
	    get_status(n > 1 ? args[1] : NULL, &s) != 0)
		return NULL;
	if (ens_iprobe_any(type, &port, &st) && s != NULL)
		fill_status(s, &st, MPI_BYTE);
	return PyLong_FromLong(port);
}

/*
 * Collectives.
 */

/* An Op: a name ("sum", "MPI_SUM", any case) or an mpi4py Op. */
static int
get_op(PyObject *o, MPI_Op *out)
{
	static const char *const names[] = { "sum", "prod", "max", "min",
		"land", "lor", "lxor", "band", "bor", "bxor", "maxloc", "minloc",
		"replace" };
	const MPI_Op	 vals[] = { MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND,
			    MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR,
			    MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE };
	const char	*s;
	MPI_Fint	 f;
	size_t		 i;

	if (PyUnicode_Check(o)) {
		if ((s = PyUnicode_AsUTF8(o)) == NULL)
			return -1;
		if (strncasecmp(s, "MPI_", 4) == 0)
			s += 4;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcasecmp(s, names[i]) == 0) {
				*out = vals[i];
				return 0;
			}
		PyErr_Format(PyExc_ValueError, "no reduction operation '%U' "
		    "(sum, prod, max, min, land, lor, lxor, band, bor, bxor, "
		    "maxloc, minloc, replace)", o);
		return -1;
	}
	if (fhandle(o, &f) != 0)
		return -1;
	if ((*out = MPI_Op_f2c(f)) == MPI_OP_NULL) {
		PyErr_SetString(PyExc_TypeError, "not an MPI operation");
		return -1;
	}
	return 0;
}

/* What a collective goes over: the application (name NULL), or the
 * group its last argument names, 'workers' or ('rows', 2) for rows[2],
 * as the script writes 'over G'; its size and this process's rank. */
struct over {
	const char	*name;
	int		 index;
	int		 np, rank;
};

/* When the fast call has max + 1 arguments, take the last as the group
 * into *ov and drop it from *n; else, or when it is None, the
 * application.  -1 with an
 * exception when it is no group; a group the process is not in stops the
 * application (ens_comm_group). */
static int
get_over(const char *fn, PyObject *const *args, Py_ssize_t *n, Py_ssize_t max,
    struct over *ov)
{
	PyObject	*o, *i;
	MPI_Comm	 c;
	long		 k;

	ov->name = NULL;
	ov->index = 0;
	ov->np = ens_self()->nprocs;
	ov->rank = ens_self()->rank;
	if (*n != max + 1)
		return 0;
	o = args[--*n];
	if (o == Py_None)
		return 0;
	if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2 &&
	    PyUnicode_Check(PyTuple_GET_ITEM(o, 0)) &&
	    PyLong_Check(PyTuple_GET_ITEM(o, 1))) {
		i = PyTuple_GET_ITEM(o, 1);
		k = PyLong_AsLong(i);
		if ((k == -1 && PyErr_Occurred()) || k < INT_MIN || k > INT_MAX) {
			PyErr_Clear();
			PyErr_Format(PyExc_ValueError, "ensemble.%s: the group's "
			    "index %R is out of range", fn, i);
			return -1;
		}
		ov->index = (int)k;
		o = PyTuple_GET_ITEM(o, 0);
	} else if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "ensemble.%s: a group is a name "
		    "('workers') or a (name, index) tuple (('rows', 2)), not %s",
		    fn, Py_TYPE(o)->tp_name);
		return -1;
	}
	if ((ov->name = PyUnicode_AsUTF8(o)) == NULL)
		return -1;
	c = ens_comm_group(ov->name, ov->index);
	MPI_Comm_size(c, &ov->np);
	MPI_Comm_rank(c, &ov->rank);
	return 0;
}

/* ens_F, or over ov (a struct over) ens_F_over. */
#define OVER(ov, f, ...)	do { if ((ov).name != NULL) \
	ens_##f##_over(__VA_ARGS__, (ov).name, (ov).index); \
	else ens_##f(__VA_ARGS__); } while (0)

/* Elements per process of a buffer that holds np blocks. */
static int
per_proc(const char *fn, const char *what, const struct pybuf *b, int np,
    int *out)
{

	if (!b->held) {
		*out = 0;
		return 0;
	}
	if (b->count % np != 0) {
		PyErr_Format(PyExc_ValueError, "ensemble.%s: %s of %d elements is "
		    "not %d equal blocks, one per process", fn, what, b->count, np);
		return -1;
	}
	*out = b->count / np;
	return 0;
}

PyDoc_STRVAR(barrier_doc,
"barrier($module, group=None, /)\n--\n\n"
"Wait until every process of the application has called it (ens_barrier),\n"
"or every member of group (ens_barrier_over).  Every collective takes a\n"
"group as its last argument, as the script writes 'over G': a name,\n"
"'workers', or a (name, index) tuple, ('rows', 2) for rows[2]; ranks,\n"
"counts and roots are then the group's.");

static PyObject *
py_barrier(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct over	ov;

	(void)self;
	if (need_running("barrier") != 0 ||
	    get_over("barrier", args, &n, 0, &ov) != 0 ||
	    nargs("barrier", n, 0, 0) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	if (ov.name != NULL)
		ens_barrier_over(ov.name, ov.index);
	else
		ens_barrier();
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

PyDoc_STRVAR(bcast_doc,
"bcast($module, buf, root, group=None, /)\n--\n\n"
"root's buf into every process's buf (ens_bcast).  root is a process's\n"
"name as in the script: 'master', 'relay[1]'.");

static PyObject *
py_bcast(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 b;
	const char	*root;
	struct over	 ov;

	(void)self;
	if (need_running("bcast") != 0 || get_over("bcast", args, &n, 2, &ov) != 0)
		return NULL;
	if (nargs("bcast", n, 2, 2) != 0 || need_running("bcast") != 0 ||
	    get_root(args[1], &root) != 0 || get_buf(args[0], 1, 0, &b) != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	OVER(ov, bcast, b.view.buf, b.count, b.dt, root);
	Py_END_ALLOW_THREADS
	put_buf(&b);
	Py_RETURN_NONE;
}

/* reduce and allreduce: (sendbuf, recvbuf, op[, root]). */
static PyObject *
do_reduce(const char *fn, int rooted, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 s, r;
	const char	*root = NULL;
	MPI_Op		 op;
	struct over	 ov;

	if (need_running(fn) != 0 || get_over(fn, args, &n, 3 + rooted, &ov) != 0)
		return NULL;
	if (nargs(fn, n, 3 + rooted, 3 + rooted) != 0 || need_running(fn) != 0 ||
	    get_op(args[2], &op) != 0 || (rooted && get_root(args[3], &root) != 0))
		return NULL;
	if (get_buf(args[0], 0, 0, &s) != 0)
		return NULL;
	if (get_buf(args[1], 1, rooted, &r) != 0) {
		put_buf(&s);
		return NULL;
	}
	if (r.held && (r.count != s.count || r.dt != s.dt)) {
		PyErr_Format(PyExc_ValueError, "ensemble.%s: recvbuf must be "
		    "like sendbuf (%d elements of its type), not %d", fn, s.count,
		    r.count);
		put_buf(&r);
		put_buf(&s);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	if (rooted)
		OVER(ov, reduce, s.view.buf, buf_ptr(&r), s.count, s.dt, op, root);
	else
		OVER(ov, allreduce, s.view.buf, r.view.buf, s.count, s.dt, op);
	Py_END_ALLOW_THREADS
	put_buf(&r);
	put_buf(&s);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(reduce_doc,
"reduce($module, sendbuf, recvbuf, op, root, group=None, /)\n--\n\n"
"Combine every process's sendbuf element by element with op into root's\n"
"recvbuf (ens_reduce); recvbuf is like sendbuf, and may be None except\n"
"at root.  op is a name ('sum', 'prod', 'max', 'min', 'land', 'lor',\n"
"'lxor', 'band', 'bor', 'bxor', 'maxloc', 'minloc') or an mpi4py Op.");

static PyObject *
py_reduce(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_reduce("reduce", 1, args, n);
}

PyDoc_STRVAR(allreduce_doc,
"allreduce($module, sendbuf, recvbuf, op, group=None, /)\n--\n\n"
"The same as reduce(), into every process's recvbuf (ens_allreduce).");

static PyObject *
py_allreduce(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_reduce("allreduce", 0, args, n);
}

enum gkind { G_GATHER, G_ALLGATHER, G_SCATTER, G_ALLTOALL };

/* gather, allgather, scatter, alltoall: (sendbuf, recvbuf[, root]). */
static PyObject *
do_gather(const char *fn, enum gkind k, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 s, r;
	const char	*root = NULL;
	int		 rooted = k == G_GATHER || k == G_SCATTER, sc, rc;
	PyObject	*ret = NULL;
	struct over	 ov;

	if (need_running(fn) != 0 || get_over(fn, args, &n, 2 + rooted, &ov) != 0)
		return NULL;
	if (nargs(fn, n, 2 + rooted, 2 + rooted) != 0 || need_running(fn) != 0 ||
	    (rooted && get_root(args[2], &root) != 0))
		return NULL;
	if (get_buf(args[0], 0, k == G_SCATTER, &s) != 0)
		return NULL;
	if (get_buf(args[1], 1, k == G_GATHER, &r) != 0) {
		put_buf(&s);
		return NULL;
	}
	/* The counts per process: the blocked buffer's length split. */
	sc = s.count;
	rc = r.count;
	if ((k != G_SCATTER && k != G_ALLTOALL ? 0 :
	    per_proc(fn, "sendbuf", &s, ov.np, &sc)) != 0 ||
	    (k == G_SCATTER ? 0 : per_proc(fn, "recvbuf", &r, ov.np, &rc)) != 0)
		goto out;
	if (!s.held)
		s.dt = r.dt;
	if (!r.held)
		r.dt = s.dt;
	Py_BEGIN_ALLOW_THREADS
	switch (k) {
	case G_GATHER:
		OVER(ov, gather, s.view.buf, sc, s.dt, buf_ptr(&r), rc, r.dt, root);
		break;
	case G_ALLGATHER:
		OVER(ov, allgather, s.view.buf, sc, s.dt, r.view.buf, rc, r.dt);
		break;
	case G_SCATTER:
		OVER(ov, scatter, buf_ptr(&s), sc, s.dt, r.view.buf, rc, r.dt, root);
		break;
	case G_ALLTOALL:
		OVER(ov, alltoall, s.view.buf, sc, s.dt, r.view.buf, rc, r.dt);
		break;
	}
	Py_END_ALLOW_THREADS
	ret = Py_NewRef(Py_None);
out:
	put_buf(&r);
	put_buf(&s);
	return ret;
}

PyDoc_STRVAR(gather_doc,
"gather($module, sendbuf, recvbuf, root, group=None, /)\n--\n\n"
"Every process's sendbuf into root's recvbuf, in rank (script) order\n"
"(ens_gather); recvbuf holds nprocs blocks as long as sendbuf, and may be\n"
"None except at root.");

static PyObject *
py_gather(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_gather("gather", G_GATHER, args, n);
}

PyDoc_STRVAR(allgather_doc,
"allgather($module, sendbuf, recvbuf, group=None, /)\n--\n\n"
"The same as gather(), into every process's recvbuf (ens_allgather).");

static PyObject *
py_allgather(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_gather("allgather", G_ALLGATHER, args, n);
}

PyDoc_STRVAR(scatter_doc,
"scatter($module, sendbuf, recvbuf, root, group=None, /)\n--\n\n"
"The k-th of nprocs equal blocks of root's sendbuf into the recvbuf of\n"
"the process of rank k (ens_scatter); sendbuf may be None except at\n"
"root.");

static PyObject *
py_scatter(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_gather("scatter", G_SCATTER, args, n);
}

PyDoc_STRVAR(alltoall_doc,
"alltoall($module, sendbuf, recvbuf, group=None, /)\n--\n\n"
"The k-th of nprocs equal blocks of every process's sendbuf to the process\n"
"of rank k, into its recvbuf in the senders' rank order (ens_alltoall).");

static PyObject *
py_alltoall(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_gather("alltoall", G_ALLTOALL, args, n);
}

/*
 * Types.
 */

/* Status(): an empty status, to pass to a receive. */
static PyObject *
status_new(PyTypeObject *t, PyObject *args, PyObject *kw)
{
	StatusObject	*s;

	if (PyTuple_GET_SIZE(args) != 0 || (kw != NULL && PyDict_GET_SIZE(kw) != 0)) {
		PyErr_SetString(PyExc_TypeError, "Status() takes no arguments");
		return NULL;
	}
	if ((s = (StatusObject *)t->tp_alloc(t, 0)) == NULL)
		return NULL;
	s->count = 0;
	s->port = 0;
	s->type = Py_NewRef(Py_None);
	s->source = -1;
	s->tag = -1;
	return (PyObject *)s;
}

/* Free a Status and its port type's name. */
static void
status_dealloc(StatusObject *s)
{
	Py_XDECREF(s->type);
	Py_TYPE(s)->tp_free((PyObject *)s);
}

/* "ensemble.Status(count=1, port=2, ...)", for printing and debugging. */
static PyObject *
status_repr(StatusObject *s)
{
	return PyUnicode_FromFormat("ensemble.Status(count=%d, port=%d, type=%R, "
	    "source=%d, tag=%d)", s->count, s->port, s->type != NULL ? s->type :
	    Py_None, s->source, s->tag);
}

static PyMemberDef status_members[] = {
	{ "count", T_INT, offsetof(StatusObject, count), READONLY,
	  "elements received, in the buffer's datatype" },
	{ "port", T_INT, offsetof(StatusObject, port), READONLY,
	  "index of the port the message came by (1-based); 0 for a send" },
	{ "type", T_OBJECT, offsetof(StatusObject, type), READONLY,
	  "that port's type (str); None for a send" },
	{ "source", T_INT, offsetof(StatusObject, source), READONLY,
	  "the sender's rank (MPI_SOURCE)" },
	{ "tag", T_INT, offsetof(StatusObject, tag), READONLY,
	  "the message's tag (MPI_TAG)" },
	{ NULL, 0, 0, 0, NULL }
};

static PyTypeObject StatusType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "ensemble.Status",
	.tp_basicsize = sizeof(StatusObject),
	.tp_dealloc = (destructor)status_dealloc,
	.tp_repr = (reprfunc)status_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Status()\n--\n\n"
	    "What a receive filled in: pass one to recv() or recv_any(), or a\n"
	    "list to waitall().  count is how many elements came (in the\n"
	    "buffer's datatype), port and type the port they came by.",
	.tp_members = status_members,
	.tp_new = status_new,
};

/* Free a Request, and its buffer once it completed. */
static void
request_dealloc(RequestObject *r)
{
	/* A request never completed keeps its buffer for good: MPI may still
	 * write into it. */
	if (r->req == MPI_REQUEST_NULL)
		put_buf(&r->buf);
	PyObject_Free(r);
}

PyDoc_STRVAR(request_wait_doc,
"wait($self, /)\n--\n\n"
"Complete this request alone: waitall([self]).");

/* Request.wait(): complete this request alone. */
static PyObject *
request_wait(RequestObject *r, PyObject *unused)
{
	(void)unused;
	if (need_running("Request.wait") != 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ens_waitall(1, &r->req);
	Py_END_ALLOW_THREADS
	put_buf(&r->buf);
	Py_RETURN_NONE;
}

/* Request.done: whether it is complete. */
static PyObject *
request_done(RequestObject *r, void *unused)
{
	(void)unused;
	return PyBool_FromLong(r->req == MPI_REQUEST_NULL);
}

/* Counts and displacements of the v-forms: nprocs ints each, owned. */
struct vspec {
	int	*counts;
	int	*displs;
};

/* A sequence of np ints (one per process of what the call goes over;
 * what: its name in messages) into *out, a new array; -1 with an
 * exception when it is not one. */
static int
get_ints(const char *fn, const char *what, PyObject *o, Py_ssize_t np,
    int **out)
{
	PyObject	*seq;
	Py_ssize_t	 i;
	long		 v;

	*out = NULL;
	if ((seq = PySequence_Fast(o, "")) == NULL) {
		PyErr_Format(PyExc_TypeError, "ensemble.%s: %s must be a "
		    "sequence of ints, one per process", fn, what);
		return -1;
	}
	if (PySequence_Fast_GET_SIZE(seq) != np) {
		PyErr_Format(PyExc_ValueError, "ensemble.%s: %s has %zd "
		    "elements, not %zd (one per process)", fn, what,
		    PySequence_Fast_GET_SIZE(seq), np);
		Py_DECREF(seq);
		return -1;
	}
	*out = PyMem_Calloc((size_t)np + 1, sizeof(int));
	if (*out == NULL) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < np; i++) {
		v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
		if ((v == -1 && PyErr_Occurred()) || v < 0 || v > INT_MAX) {
			if (!PyErr_Occurred() || PyErr_ExceptionMatches(
			    PyExc_OverflowError) || PyErr_ExceptionMatches(
			    PyExc_TypeError)) {
				PyErr_Clear();
				PyErr_Format(PyExc_ValueError, "ensemble.%s: %s[%zd] "
				    "is not an int from 0 to INT_MAX", fn, what, i);
			}
			Py_DECREF(seq);
			PyMem_Free(*out);
			*out = NULL;
			return -1;
		}
		(*out)[i] = (int)v;
	}
	Py_DECREF(seq);
	return 0;
}

/* Counts and displacements (None: the blocks packed in rank order) of a
 * buffer b into v, each block inside it; with b not held (None), none
 * needed, v stays empty. */
static int
get_vspec(const char *fn, const char *what, PyObject *counts, PyObject *displs,
    const struct pybuf *b, int np, struct vspec *v)
{
	int	i;
	long	at = 0;

	v->counts = v->displs = NULL;
	if (!b->held)
		return 0;
	if (get_ints(fn, "counts", counts, np, &v->counts) != 0)
		return -1;
	if (displs != Py_None) {
		if (get_ints(fn, "displs", displs, np, &v->displs) != 0)
			return -1;
	} else if ((v->displs = PyMem_Calloc((size_t)np + 1, sizeof(int))) ==
	    NULL) {
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < np; i++) {
		if (displs == Py_None) {
			if (at > INT_MAX) {
				PyErr_Format(PyExc_OverflowError, "ensemble.%s: more "
				    "than INT_MAX elements", fn);
				return -1;
			}
			v->displs[i] = (int)at;
		}
		if ((long)v->displs[i] + v->counts[i] > b->count) {
			PyErr_Format(PyExc_ValueError, "ensemble.%s: block %d "
			    "(%d elements at %d) is past the end of %s (%d "
			    "elements)", fn, i, v->counts[i], v->displs[i], what,
			    b->count);
			return -1;
		}
		at += v->counts[i];
	}
	return 0;
}

static void
put_vspec(struct vspec *v)
{
	PyMem_Free(v->counts);
	PyMem_Free(v->displs);
	v->counts = v->displs = NULL;
}

enum vkind { V_ALLGATHERV, V_GATHERV, V_SCATTERV, V_ALLTOALLV };

/* allgatherv, gatherv: (sendbuf, recvbuf, counts, displs[, root]);
 * scatterv (sendbuf, recvbuf, counts, displs, root); alltoallv (sendbuf,
 * recvbuf, sendcounts, sdispls, recvcounts, rdispls). */
static PyObject *
do_vgather(const char *fn, enum vkind k, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 s, r;
	struct vspec	 sv = { NULL, NULL }, rv = { NULL, NULL };
	const char	*root = NULL;
	int		 want = k == V_ALLGATHERV ? 4 : k == V_ALLTOALLV ? 6 : 5;
	PyObject	*ret = NULL;
	struct over	 ov;

	if (need_running(fn) != 0 || get_over(fn, args, &n, want, &ov) != 0)
		return NULL;
	if (nargs(fn, n, want, want) != 0 || need_running(fn) != 0 ||
	    (want == 5 && get_root(args[4], &root) != 0))
		return NULL;
	if (get_buf(args[0], 0, k == V_SCATTERV, &s) != 0)
		return NULL;
	if (get_buf(args[1], 1, k == V_GATHERV, &r) != 0) {
		put_buf(&s);
		return NULL;
	}
	if (!s.held)
		s.dt = r.dt;
	if (!r.held)
		r.dt = s.dt;
	switch (k) {
	case V_ALLGATHERV:
	case V_GATHERV:
		if (get_vspec(fn, "recvbuf", args[2], args[3], &r, ov.np, &rv) != 0)
			goto out;
		break;
	case V_SCATTERV:
		if (get_vspec(fn, "sendbuf", args[2], args[3], &s, ov.np, &sv) != 0)
			goto out;
		break;
	case V_ALLTOALLV:
		if (get_vspec(fn, "sendbuf", args[2], args[3], &s, ov.np, &sv) != 0 ||
		    get_vspec(fn, "recvbuf", args[4], args[5], &r, ov.np, &rv) != 0)
			goto out;
		break;
	}
	Py_BEGIN_ALLOW_THREADS
	switch (k) {
	case V_ALLGATHERV:
		OVER(ov, allgatherv, s.view.buf, s.count, s.dt, r.view.buf,
		    rv.counts, rv.displs, r.dt);
		break;
	case V_GATHERV:
		OVER(ov, gatherv, s.view.buf, s.count, s.dt, buf_ptr(&r),
		    rv.counts, rv.displs, r.dt, root);
		break;
	case V_SCATTERV:
		OVER(ov, scatterv, buf_ptr(&s), sv.counts, sv.displs, s.dt,
		    r.view.buf, r.count, r.dt, root);
		break;
	case V_ALLTOALLV:
		OVER(ov, alltoallv, s.view.buf, sv.counts, sv.displs, s.dt,
		    r.view.buf, rv.counts, rv.displs, r.dt);
		break;
	}
	Py_END_ALLOW_THREADS
	ret = Py_NewRef(Py_None);
out:
	put_vspec(&sv);
	put_vspec(&rv);
	put_buf(&r);
	put_buf(&s);
	return ret;
}

PyDoc_STRVAR(allgatherv_doc,
"allgatherv($module, sendbuf, recvbuf, counts, displs, group=None, /)\n"
"--\n\n"
"Every process's sendbuf into every process's recvbuf, the one of rank k\n"
"as counts[k] elements at displs[k] (ens_allgatherv).  counts and displs\n"
"are sequences of ints, one per process in rank (script) order, in\n"
"elements; displs None packs the blocks in rank order.");

static PyObject *
py_allgatherv(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_vgather("allgatherv", V_ALLGATHERV, args, n);
}

PyDoc_STRVAR(gatherv_doc,
"gatherv($module, sendbuf, recvbuf, counts, displs, root, group=None,\n"
"        /)\n--\n\n"
"The same as allgatherv(), into root's recvbuf only (ens_gatherv);\n"
"recvbuf, counts and displs may be None except at root.");

static PyObject *
py_gatherv(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_vgather("gatherv", V_GATHERV, args, n);
}

PyDoc_STRVAR(scatterv_doc,
"scatterv($module, sendbuf, recvbuf, counts, displs, root, group=None,\n"
"         /)\n--\n\n"
"The counts[k] elements at displs[k] of root's sendbuf into the recvbuf\n"
"of the process of rank k, which holds as many (ens_scatterv); sendbuf,\n"
"counts and displs may be None except at root; displs None packs the\n"
"blocks in rank order.");

static PyObject *
py_scatterv(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_vgather("scatterv", V_SCATTERV, args, n);
}

PyDoc_STRVAR(alltoallv_doc,
"alltoallv($module, sendbuf, recvbuf, sendcounts, sdispls, recvcounts,\n"
"          rdispls, group=None, /)\n--\n\n"
"The sendcounts[k] elements at sdispls[k] of every process's sendbuf to\n"
"the process of rank k, into its recvbuf as recvcounts[j] elements at\n"
"rdispls[j] for the sender of rank j (ens_alltoallv); displacements None\n"
"pack the blocks in rank order.");

static PyObject *
py_alltoallv(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	(void)self;
	return do_vgather("alltoallv", V_ALLTOALLV, args, n);
}

PyDoc_STRVAR(reduce_scatter_doc,
"reduce_scatter($module, sendbuf, recvbuf, counts, op, group=None, /)\n"
"--\n\n"
"Combine every process's sendbuf (sum(counts) elements) element by element\n"
"with op, and give the process of rank k the k-th block of the result,\n"
"counts[k] elements, in its recvbuf (ens_reduce_scatter); op as for\n"
"reduce().");

static PyObject *
py_reduce_scatter(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	struct pybuf	 s, r;
	int		*counts = NULL, i, me;
	long		 sum = 0;
	MPI_Op		 op;
	PyObject	*ret = NULL;
	struct over	 ov;

	(void)self;
	if (need_running("reduce_scatter") != 0 ||
	    get_over("reduce_scatter", args, &n, 4, &ov) != 0)
		return NULL;
	if (nargs("reduce_scatter", n, 4, 4) != 0 ||
	    need_running("reduce_scatter") != 0 || get_op(args[3], &op) != 0)
		return NULL;
	if (get_buf(args[0], 0, 0, &s) != 0)
		return NULL;
	if (get_buf(args[1], 1, 0, &r) != 0) {
		put_buf(&s);
		return NULL;
	}
	if (get_ints("reduce_scatter", "counts", args[2], ov.np, &counts) != 0)
		goto out;
	for (i = 0; i < ov.np; i++)
		sum += counts[i];
	me = ov.rank;
	if (sum != s.count || counts[me] != r.count || r.dt != s.dt) {
		PyErr_Format(PyExc_ValueError, "ensemble.reduce_scatter: sendbuf "
		    "must hold sum(counts) = %ld elements (not %d), recvbuf "
		    "counts[%d] = %d of the same type (not %d)", sum, s.count, me,
		    counts[me], r.count);
		goto out;
	}
	Py_BEGIN_ALLOW_THREADS
	OVER(ov, reduce_scatter, s.view.buf, r.view.buf, counts, s.dt, op);
	Py_END_ALLOW_THREADS
	ret = Py_NewRef(Py_None);
out:
	PyMem_Free(counts);
	put_buf(&r);
	put_buf(&s);
	return ret;
}

static PyMethodDef request_methods[] = {
	{ "wait", (PyCFunction)request_wait, METH_NOARGS, request_wait_doc },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef request_getset[] = {
	{ "done", (getter)request_done, NULL,
	  "True once waitall() or wait() completed it", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject RequestType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "ensemble.Request",
	.tp_basicsize = sizeof(RequestObject),
	.tp_dealloc = (destructor)request_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A non-blocking call started by isend(), issend(), ibsend(),\n"
	    "irecv() or irecv_any(), holding its buffer until waitall()\n"
	    "completes it.  One dropped before it completes keeps its buffer\n"
	    "for good.",
	.tp_methods = request_methods,
	.tp_getset = request_getset,
};

static PyStructSequence_Field self_fields[] = {
	{ "name", "the process's name as in the script: 'relay[2]', 'master'" },
	{ "component", "its component's name: 'relay'" },
	{ "index", "its index: 2; 0 for a process without one" },
	{ "rank", "its rank in the application, from 0, in script order" },
	{ "nprocs", "the number of processes in the application" },
	{ "indexed", "True when it has an index ('a[0]' too)" },
	{ NULL, NULL }
};

static PyStructSequence_Desc self_desc = {
	"ensemble.Self",
	"Who a process is, as self() returns it.",
	self_fields, 6
};

static PyStructSequence_Field port_fields[] = {
	{ "comm", "an mpi4py Intracomm of every process (do not free it)" },
	{ "rank", "the rank in comm of the process at the other end" },
	{ "tag", "the tag to send with" },
	{ "recv_tag", "the tag to receive with (differs on a channel from a "
	  "process to itself)" },
	{ NULL, NULL }
};

static PyStructSequence_Desc port_desc = {
	"ensemble.Port",
	"A port as MPI sees it, as port() returns it.",
	port_fields, 4
};

PyDoc_STRVAR(launch_doc,
"_launch($module, script, options, /)\n--\n\n"
"ens_launch: (status, report); RuntimeError with the report when it\n"
"cannot run the application.");

#define LAUNCH_REPORT	(256 * 1024)	/* the report's bytes, at most */

/* _launch(script, options): ens_launch, its GIL released. */
static PyObject *
py_launch(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
	PyObject	 *seq = NULL, *b = NULL, **bs = NULL, *r = NULL;
	const char	**opt = NULL;
	char		 *report = NULL;
	Py_ssize_t	  i, len = 0, nb = 0;
	int		  rc, status;

	(void)self;
	if (nargs("_launch", n, 2, 2) != 0 ||
	    !PyUnicode_FSConverter(args[0], &b) ||
	    (seq = PySequence_Fast(args[1], "options must be a sequence")) ==
	    NULL)
		goto out;
	len = PySequence_Fast_GET_SIZE(seq);
	opt = PyMem_Calloc((size_t)len + 1, sizeof(*opt));
	bs = PyMem_Calloc((size_t)len + 1, sizeof(*bs));
	report = PyMem_Malloc(LAUNCH_REPORT);
	if (opt == NULL || bs == NULL || report == NULL) {
		PyErr_NoMemory();
		goto out;
	}
	for (nb = 0; nb < len; nb++) {
		if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, nb),
		    &bs[nb]))
			goto out;
		opt[nb] = PyBytes_AS_STRING(bs[nb]);
	}
	Py_BEGIN_ALLOW_THREADS
	rc = ens_launch(PyBytes_AS_STRING(b), opt, &status, report,
	    LAUNCH_REPORT);
	Py_END_ALLOW_THREADS
	if (rc != ENS_OK) {
		len = (Py_ssize_t)strlen(report);
		while (len > 0 && report[len - 1] == '\n')
			report[--len] = '\0';
		PyErr_Format(PyExc_RuntimeError, "ensemble.launch: %s (%s)",
		    report, ens_strerror(rc));
		goto out;
	}
	r = Py_BuildValue("(iy)", status, report);
out:
	for (i = 0; bs != NULL && i < nb; i++)
		Py_XDECREF(bs[i]);
	PyMem_Free(bs);
	PyMem_Free(opt);
	PyMem_Free(report);
	Py_XDECREF(seq);
	Py_XDECREF(b);
	return r;
}

static PyMethodDef methods[] = {
	{ "_launch", (PyCFunction)(void (*)(void))py_launch, METH_FASTCALL,
	  launch_doc },
	{ "_init", (PyCFunction)(void (*)(void))py_init, METH_FASTCALL, init_doc },
	{ "_running", py_running, METH_NOARGS, running_doc },
	{ "finalize", py_finalize, METH_NOARGS, finalize_doc },
	{ "ports", py_ports, METH_O, ports_doc },
	{ "self", py_self, METH_NOARGS, self_doc },
	{ "param", py_param, METH_O, param_doc },
	{ "port", (PyCFunction)(void (*)(void))py_port, METH_FASTCALL, port_doc },
	{ "comm_component", py_comm_component, METH_NOARGS, comm_component_doc },
	{ "comm_group", (PyCFunction)(void (*)(void))py_comm_group, METH_FASTCALL,
	  comm_group_doc },
	{ "send", (PyCFunction)(void (*)(void))py_send, METH_FASTCALL, send_doc },
	{ "ssend", (PyCFunction)(void (*)(void))py_ssend, METH_FASTCALL, ssend_doc },
	{ "bsend", (PyCFunction)(void (*)(void))py_bsend, METH_FASTCALL, bsend_doc },
	{ "recv", (PyCFunction)(void (*)(void))py_recv, METH_FASTCALL, recv_doc },
	{ "recv_any", (PyCFunction)(void (*)(void))py_recv_any, METH_FASTCALL,
	  recv_any_doc },
	{ "isend", (PyCFunction)(void (*)(void))py_isend, METH_FASTCALL, isend_doc },
	{ "issend", (PyCFunction)(void (*)(void))py_issend, METH_FASTCALL,
	  issend_doc },
	{ "ibsend", (PyCFunction)(void (*)(void))py_ibsend, METH_FASTCALL,
	  ibsend_doc },
	{ "irecv", (PyCFunction)(void (*)(void))py_irecv, METH_FASTCALL, irecv_doc },
	{ "irecv_any", (PyCFunction)(void (*)(void))py_irecv_any, METH_FASTCALL,
	  irecv_any_doc },
	{ "waitall", (PyCFunction)(void (*)(void))py_waitall, METH_FASTCALL,
	  waitall_doc },
	{ "wait", (PyCFunction)(void (*)(void))py_wait, METH_FASTCALL, wait_doc },
	{ "test", (PyCFunction)(void (*)(void))py_test, METH_FASTCALL, test_doc },
	{ "waitany", (PyCFunction)(void (*)(void))py_waitany, METH_FASTCALL,
	  waitany_doc },
	{ "waitsome", (PyCFunction)(void (*)(void))py_waitsome, METH_FASTCALL,
	  waitsome_doc },
	{ "sendrecv", (PyCFunction)(void (*)(void))py_sendrecv, METH_FASTCALL,
	  sendrecv_doc },
	{ "sendrecv_replace", (PyCFunction)(void (*)(void))py_sendrecv_replace,
	  METH_FASTCALL, sendrecv_replace_doc },
	{ "probe", (PyCFunction)(void (*)(void))py_probe, METH_FASTCALL, probe_doc },
	{ "probe_any", (PyCFunction)(void (*)(void))py_probe_any, METH_FASTCALL,
	  probe_any_doc },
	{ "iprobe", (PyCFunction)(void (*)(void))py_iprobe, METH_FASTCALL,
	  iprobe_doc },
	{ "iprobe_any", (PyCFunction)(void (*)(void))py_iprobe_any, METH_FASTCALL,
	  iprobe_any_doc },
	{ "barrier", (PyCFunction)(void (*)(void))py_barrier, METH_FASTCALL,
	  barrier_doc },
	{ "bcast", (PyCFunction)(void (*)(void))py_bcast, METH_FASTCALL, bcast_doc },
	{ "reduce", (PyCFunction)(void (*)(void))py_reduce, METH_FASTCALL,
	  reduce_doc },
	{ "allreduce", (PyCFunction)(void (*)(void))py_allreduce, METH_FASTCALL,
	  allreduce_doc },
	{ "gather", (PyCFunction)(void (*)(void))py_gather, METH_FASTCALL,
	  gather_doc },
	{ "allgather", (PyCFunction)(void (*)(void))py_allgather, METH_FASTCALL,
	  allgather_doc },
	{ "scatter", (PyCFunction)(void (*)(void))py_scatter, METH_FASTCALL,
	  scatter_doc },
	{ "alltoall", (PyCFunction)(void (*)(void))py_alltoall, METH_FASTCALL,
	  alltoall_doc },
	{ "allgatherv", (PyCFunction)(void (*)(void))py_allgatherv,
	  METH_FASTCALL, allgatherv_doc },
	{ "gatherv", (PyCFunction)(void (*)(void))py_gatherv, METH_FASTCALL,
	  gatherv_doc },
	{ "scatterv", (PyCFunction)(void (*)(void))py_scatterv, METH_FASTCALL,
	  scatterv_doc },
	{ "alltoallv", (PyCFunction)(void (*)(void))py_alltoallv, METH_FASTCALL,
	  alltoallv_doc },
	{ "reduce_scatter", (PyCFunction)(void (*)(void))py_reduce_scatter,
	  METH_FASTCALL, reduce_scatter_doc },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef moddef = {
	PyModuleDef_HEAD_INIT,
	.m_name = "ensemble._ensemble",
	.m_doc = "The C side of the package ensemble: calls into libensemble.",
	.m_size = -1,
	.m_methods = methods,
};

PyMODINIT_FUNC PyInit__ensemble(void);

/* The module: its types, and mpi4py's Intracomm.f2py. */
PyMODINIT_FUNC
PyInit__ensemble(void)
{
	PyObject	*m, *mpi, *ic;

	if (PyType_Ready(&StatusType) < 0 || PyType_Ready(&RequestType) < 0)
		return NULL;
	if (SelfType.tp_name == NULL &&
	    PyStructSequence_InitType2(&SelfType, &self_desc) < 0)
		return NULL;
	if (PortType.tp_name == NULL &&
	    PyStructSequence_InitType2(&PortType, &port_desc) < 0)
		return NULL;
	if ((mpi = PyImport_ImportModule("mpi4py.MPI")) == NULL)
		return NULL;
	ic = PyObject_GetAttrString(mpi, "Intracomm");
	Py_DECREF(mpi);
	if (ic == NULL)
		return NULL;
	comm_f2py = PyObject_GetAttrString(ic, "f2py");
	Py_DECREF(ic);
	if (comm_f2py == NULL)
		return NULL;
	if ((m = PyModule_Create(&moddef)) == NULL)
		return NULL;
	if (PyModule_AddObjectRef(m, "Status", (PyObject *)&StatusType) < 0 ||
	    PyModule_AddObjectRef(m, "Request", (PyObject *)&RequestType) < 0 ||
	    PyModule_AddObjectRef(m, "Self", (PyObject *)&SelfType) < 0 ||
	    PyModule_AddObjectRef(m, "Port", (PyObject *)&PortType) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
