use crate::lang::Lang;

use super::{defines, is_identifier, MAX_SCAN};

/// Runs a table of `(line, name, expected)` and reports every row that
/// disagrees, not just the first.
fn check(lang: Lang, table: &[(&str, &str, bool)]) {
    let failures: Vec<String> = table
        .iter()
        .filter(|(line, name, expected)| {
            defines(lang, line.as_bytes(), name.as_bytes()) != *expected
        })
        .map(|(line, name, expected)| {
            format!("  {lang:?} {name:?} in {line:?}: expected {expected}")
        })
        .collect();
    assert!(
        failures.is_empty(),
        "wrong answers:\n{}",
        failures.join("\n")
    );
}

#[test]
fn is_identifier_accepts_ascii_names_with_dollar_and_underscore() {
    for good in ["useState", "_private", "$http", "a1", "__init__", "X"] {
        assert!(is_identifier(good.as_bytes()), "{good}");
    }
    for bad in [
        "",
        "1abc",
        "foo-bar",
        "a.b",
        "caf\u{e9}",
        "foo bar",
        "Foo::bar",
    ] {
        assert!(!is_identifier(bad.as_bytes()), "{bad}");
    }
}

#[test]
fn non_identifier_queries_are_never_defined() {
    assert!(!defines(Lang::Rust, b"fn foo-bar() {}", b"foo-bar"));
    assert!(!defines(Lang::Rust, b"fn () {}", b""));
}

#[test]
#[rustfmt::skip]
fn typescript_definitions_and_uses() {
    let table = [
        // Definitions.
        ("export function useState<S>(initialState: S) {", "useState", true),
        ("export function useState(", "useState", true),
        ("function* saga() {", "saga", true),
        ("function *saga() {", "saga", true),
        ("async function fetchUser(id: string) {", "fetchUser", true),
        ("export default async function handler(req, res) {", "handler", true),
        ("export default function App() {", "App", true),
        ("export class ReactDOMRoot {", "ReactDOMRoot", true),
        ("export abstract class Repository<T> implements IRepo<T> {", "Repository", true),
        ("interface Props extends BaseProps {", "Props", true),
        ("export type Dispatch<A> = (value: A) => void;", "Dispatch", true),
        ("type State = {", "State", true),
        ("export enum Direction {", "Direction", true),
        ("export const enum Flags {", "Flags", true),
        ("declare namespace NodeJS {", "NodeJS", true),
        ("const useState = React.useState;", "useState", true),
        ("export const DataTable: React.FC<Props> = ({ rows }) => {", "DataTable", true),
        ("let count = 0;", "count", true),
        ("var self;", "self", true),
        ("declare function require(id: string): any;", "require", true),
        ("declare const __DEV__: boolean;", "__DEV__", true),
        ("  render() {", "render", true),
        ("  componentDidMount(): void {", "componentDidMount", true),
        ("  async componentDidMount() {", "componentDidMount", true),
        ("  static getDerivedStateFromProps(props, state) {", "getDerivedStateFromProps", true),
        ("  get value() {", "value", true),
        ("  private handleClick(event: MouseEvent) {", "handleClick", true),
        ("  public async save(", "save", true),
        ("  protected abstract validate(input: string): boolean;", "validate", true),
        ("  find<T>(id: string): Promise<T>;", "find", true),
        ("  onChange?(value: string): void;", "onChange", true),
        ("  *[Symbol.iterator]() {", "Symbol", false),
        ("  *entries() {", "entries", true),
        ("  #validate() {", "validate", true),
        ("  handleSubmit = async (event) => {", "handleSubmit", true),
        ("  handleChange = e => this.setState({ value: e.target.value });", "handleChange", true),
        ("  private readonly cache = new Map<string, Entry>();", "cache", true),
        ("  onClick: function (event) {", "onClick", true),
        ("  reducer: (state, action) => {", "reducer", true),
        ("  selector: (state: RootState): number => state.count,", "selector", true),
        ("  onSelect: (id: string) => void;", "onSelect", true),
        ("Foo.prototype.render = function () {", "render", true),
        ("exports.createElement = createElement;", "createElement", true),
        ("module.exports.parse = parse;", "parse", true),
        ("const useState = (initial) => {\r\n", "useState", true),
        // Uses.
        ("const [a, setA] = useState(0)", "useState", false),
        ("  const [rows, setRows] = useState<Row[]>([]);", "useState", false),
        ("  useState(0);", "useState", false),
        ("  return useMemo(() => compute(a), [a]);", "useMemo", false),
        ("  if (isValid(input)) {", "isValid", false),
        ("  const data = await fetchUser(id);", "fetchUser", false),
        ("  await fetchUser(id);", "fetchUser", false),
        ("  const root = new ReactDOMRoot(container);", "ReactDOMRoot", false),
        ("  useEffect(() => {", "useEffect", false),
        ("  describe('parse', () => {", "describe", false),
        ("import { useState } from 'react';", "useState", false),
        ("import type { Props } from './types';", "Props", false),
        ("export { useState, useEffect };", "useState", false),
        ("export default App;", "App", false),
        ("  this.handleClick = this.handleClick.bind(this);", "handleClick", false),
        ("  state = initialState;", "state", false),
        ("  const { dispatch } = useStore();", "dispatch", false),
        ("  return <DataTable rows={rows} />;", "DataTable", false),
        ("  console.log('function render() {');", "render", false),
        ("  // function render() {", "render", false),
        ("   * function render() {", "render", false),
        ("/* export const useState = 1 */", "useState", false),
        ("  foo.render(x) {", "render", false),
        ("  if (x) {", "if", false),
        ("  items.map((item) => render(item));", "render", false),
        ("  const useStateful = 1;", "useState", false),
        ("  count == 0 && reset();", "count", false),
        ("  reducer(state, action);", "reducer", false),
        ("  value: props.value,", "value", false),
        ("for (const item of items) {", "item", false),
    ];
    check(Lang::TypeScript, &table);
    check(Lang::Tsx, &table);
}

#[test]
#[rustfmt::skip]
fn javascript_shares_the_typescript_rules() {
    check(
        Lang::JavaScript,
        &[
            ("function createElement(type, config, children) {", "createElement", true),
            ("export default class Component {", "Component", true),
            ("  setState(partialState, callback) {", "setState", true),
            ("var ReactCurrentOwner = require('./ReactCurrentOwner');", "ReactCurrentOwner", true),
            ("  return createElement(type, props);", "createElement", false),
            ("  this.setState({ open: true });", "setState", false),
            ("  setState({ open: true });", "setState", false),
            ("  const el = createElement('div');", "createElement", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn python_definitions_and_uses() {
    check(
        Lang::Python,
        &[
            // Definitions.
            ("def urlopen(url, data=None, timeout=socket._GLOBAL_DEFAULT_TIMEOUT,", "urlopen", true),
            ("    def __init__(self, *args, **kwargs):", "__init__", true),
            ("async def open_connection(host=None, port=None, *,", "open_connection", true),
            ("    async def wait_for(fut, timeout):", "wait_for", true),
            ("class OrderedDict(dict):", "OrderedDict", true),
            ("class Error(Exception): pass", "Error", true),
            ("DEFAULT_BUFFER_SIZE = 8 * 1024  # bytes", "DEFAULT_BUFFER_SIZE", true),
            ("    maxDiff = 80*8", "maxDiff", true),
            ("_sentinel: Final = object()", "_sentinel", true),
            ("    timeout: float | None = None", "timeout", true),
            ("    name: str", "name", true),
            ("__all__ = [\"Path\", \"PurePath\"]", "__all__", true),
            ("type Point = tuple[float, float]", "Point", true),
            ("def f():\r\n", "f", true),
            // Uses.
            ("    return urlopen(req)", "urlopen", false),
            ("    r = urlopen(req, timeout=10)", "urlopen", false),
            ("    urlopen(req)", "urlopen", false),
            ("    self.timeout = timeout", "timeout", false),
            ("    if timeout == 0:", "timeout", false),
            ("    timeout += 1", "timeout", false),
            ("        timeout=timeout,", "timeout", false),
            ("    conn = HTTPConnection(host, timeout=timeout)", "timeout", false),
            ("    print(\"def urlopen(url):\")", "urlopen", false),
            ("# def urlopen(url):", "urlopen", false),
            ("    # DEFAULT_BUFFER_SIZE = 8", "DEFAULT_BUFFER_SIZE", false),
            ("from urllib.request import urlopen", "urlopen", false),
            ("import urlopen", "urlopen", false),
            ("@functools.wraps(wrapped)", "wraps", false),
            ("    x = OrderedDict()", "OrderedDict", false),
            ("class Foo(OrderedDict):", "OrderedDict", false),
            ("    for name in names:", "name", false),
            ("    \"key\": value,", "value", false),
            ("    else:", "else", false),
            ("    lambda: urlopen", "urlopen", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn go_definitions_and_uses() {
    check(
        Lang::Go,
        &[
            // Definitions.
            ("func NewServer(addr string) *Server {", "NewServer", true),
            ("func (s *Server) ListenAndServe() error {", "ListenAndServe", true),
            ("func (Server) Close() {", "Close", true),
            ("func (l *List[T]) Push(v T) {", "Push", true),
            ("func Map[T, U any](s []T, f func(T) U) []U {", "Map", true),
            ("type Server struct {", "Server", true),
            ("type Handler interface {", "Handler", true),
            ("type HandlerFunc func(ResponseWriter, *Request)", "HandlerFunc", true),
            ("var ErrServerClosed = errors.New(\"http: Server closed\")", "ErrServerClosed", true),
            ("const DefaultMaxHeaderBytes = 1 << 20", "DefaultMaxHeaderBytes", true),
            ("\tStateNew ConnState = iota", "StateNew", true),
            ("\tStateActive", "StateActive", false),
            ("\tmaxSize = 64", "maxSize", true),
            ("\tAddr string", "Addr", true),
            ("\tHandler Handler // handler to invoke", "Handler", true),
            ("\tTLSConfig *tls.Config", "TLSConfig", true),
            ("\tHeaders []string", "Headers", true),
            ("\tServeHTTP(ResponseWriter, *Request)", "ServeHTTP", false),
            ("\tRead(p []byte) (n int, err error)", "Read", true),
            ("\tClose() error", "Close", true),
            // Uses.
            ("\tsrv := NewServer(addr)", "NewServer", false),
            ("\treturn NewServer(addr)", "NewServer", false),
            ("\tNewServer(addr)", "NewServer", false),
            ("\tif err := srv.ListenAndServe(); err != nil {", "ListenAndServe", false),
            ("\tsrv.Handler = mux", "Handler", false),
            ("\tsrv.Close()", "Close", false),
            ("\tdefer Close()", "Close", false),
            ("\tbuf[i] = 0", "buf", false),
            ("\terr := run()", "err", false),
            ("\tcount++", "count", false),
            ("\tvar s Server", "Server", false),
            ("// func NewServer(addr string) *Server {", "NewServer", false),
            ("\tfmt.Println(\"func NewServer(\")", "NewServer", false),
            ("\tcase StateNew:", "StateNew", false),
            ("\treturn nil", "return", false),
            ("NewServer(addr)", "NewServer", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn rust_definitions_and_uses() {
    check(
        Lang::Rust,
        &[
            // Definitions.
            ("pub fn search_path(path: &Path) -> io::Result<()> {", "search_path", true),
            ("fn main() {", "main", true),
            ("    pub(crate) async unsafe extern \"C\" fn callback(x: i32) {", "callback", true),
            ("pub(in crate::flags) const fn default_value() -> u64 {", "default_value", true),
            ("pub struct Searcher {", "Searcher", true),
            ("pub(crate) enum Mode {", "Mode", true),
            ("pub trait Sink {", "Sink", true),
            ("    type Error;", "Error", true),
            ("pub type Result<T> = std::result::Result<T, Error>;", "Result", true),
            ("union MaybeUninit<T> {", "MaybeUninit", true),
            ("mod tests {", "tests", true),
            ("pub const DEFAULT_BUFFER_CAPACITY: usize = 64 * (1 << 10);", "DEFAULT_BUFFER_CAPACITY", true),
            ("static mut COUNTER: u32 = 0;", "COUNTER", true),
            ("macro_rules! regex {", "regex", true),
            ("#[inline] pub fn is_match(&self) -> bool {", "is_match", true),
            ("impl Searcher {", "Searcher", true),
            ("impl<'s, S: Sink> SinkContext<'s, S> {", "SinkContext", true),
            ("impl fmt::Display for Mode {", "Mode", true),
            ("unsafe impl<T: Send> Send for Queue<T> {}", "Queue", true),
            ("impl std::error::Error for Error {}", "Error", true),
            ("impl std::error::Error for ParseError {}", "Error", false),
            ("impl Sink for StandardSink {", "Sink", false),
            ("impl Sink for StandardSink {", "StandardSink", true),
            ("    default fn spec(&self) {}", "spec", true),
            // Uses.
            ("    let searcher = Searcher::new();", "Searcher", false),
            ("    let mut searcher = build();", "searcher", false),
            ("    search_path(&path)?;", "search_path", false),
            ("    return search_path(path);", "search_path", false),
            ("use crate::searcher::Searcher;", "Searcher", false),
            ("    fn sink(&mut self) -> &mut dyn Sink {", "Sink", false),
            ("// pub fn search_path(path: &Path) {", "search_path", false),
            ("/// fn main() {", "main", false),
            ("    println!(\"fn main() {{\");", "main", false),
            ("    Mode::Fast => {}", "Mode", false),
            ("impl<T> From<Vec<Mode>> for Set {", "Mode", false),
            ("    regex!(\"a+\")", "regex", false),
            ("pub fn search_paths() {", "search_path", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn php_definitions_and_uses() {
    check(
        Lang::Php,
        &[
            ("function wp_insert_post( $postarr, $wp_error = false ) {", "wp_insert_post", true),
            ("    public static function create(array $attributes = [])", "create", true),
            ("    abstract protected function handle(Request $request): Response;", "handle", true),
            ("    public function &getIterator()", "getIterator", true),
            ("final class UserController extends Controller", "UserController", true),
            ("interface ShouldQueue", "ShouldQueue", true),
            ("trait HasFactory", "HasFactory", true),
            ("enum Suit: string", "Suit", true),
            ("    const STATUS_ACTIVE = 1;", "STATUS_ACTIVE", true),
            ("    private const MAX = 10;", "MAX", true),
            ("define( 'ABSPATH', __DIR__ . '/' );", "ABSPATH", true),
            ("#[Attribute] class Route", "Route", false),
            // Uses.
            ("    $post_id = wp_insert_post( $postarr );", "wp_insert_post", false),
            ("    return static::create($attributes);", "create", false),
            ("    $this->handle($request);", "handle", false),
            ("    $user = new UserController();", "UserController", false),
            ("    echo Suit::Hearts;", "Suit", false),
            ("    if ( defined( 'ABSPATH' ) ) {", "ABSPATH", false),
            ("    // function wp_insert_post() {", "wp_insert_post", false),
            ("    # const MAX = 10;", "MAX", false),
            ("    $create = 1;", "create", false),
            ("class Post extends Model implements ShouldQueue", "ShouldQueue", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn c_definitions_and_uses() {
    let table = [
        // Definitions.
        ("int main(int argc, char **argv)", "main", true),
        ("int main(void) {", "main", true),
        ("static inline void *kmalloc(size_t size, gfp_t flags)", "kmalloc", true),
        ("static int __init serial_init(void)", "serial_init", true),
        ("struct task_struct *find_task_by_vpid(pid_t vnr)", "find_task_by_vpid", true),
        ("static ssize_t dev_read(struct file *filp, char __user *buf,", "dev_read", true),
        ("unsigned long long sched_clock(void) __attribute__((weak))", "sched_clock", true),
        ("schedule_timeout(signed long timeout)", "schedule_timeout", true),
        ("schedule_timeout (signed long timeout)", "schedule_timeout", true),
        ("struct list_head {", "list_head", true),
        ("struct file_operations", "file_operations", true),
        ("typedef struct {", "typedef", false),
        ("} spinlock_t;", "spinlock_t", true),
        ("typedef unsigned int gfp_t;", "gfp_t", true),
        ("typedef void (*irq_handler_t)(int, void *);", "irq_handler_t", true),
        ("typedef struct node node_t;", "node_t", true),
        ("typedef struct node node_t;", "node", false),
        ("typedef struct list_head {", "list_head", true),
        ("typedef enum { MODE_A, MODE_B } mode_t;", "mode_t", true),
        ("typedef enum { MODE_A, MODE_B } mode_t;", "MODE_A", false),
        ("typedef int (*cmp_fn)(const void *, const void *);", "cmp_fn", true),
        ("#define PAGE_SIZE (1UL << PAGE_SHIFT)", "PAGE_SIZE", true),
        ("#  define likely(x) __builtin_expect(!!(x), 1)", "likely", true),
        ("enum pid_type {", "pid_type", true),
        ("union bpf_attr {", "bpf_attr", true),
        ("\tPIDTYPE_PGID = 1,", "PIDTYPE_PGID", true),
        ("static const struct file_operations dev_fops = {", "dev_fops", true),
        ("int debug_level;", "debug_level", true),
        ("static char buffer[4096];", "buffer", true),
        // Uses and declarations.
        ("\tret = kmalloc(sizeof(*p), GFP_KERNEL);", "kmalloc", false),
        ("\tp = kmalloc(size, flags);", "kmalloc", false),
        ("\treturn kmalloc(size, flags);", "kmalloc", false),
        ("\tkfree(p);", "kfree", false),
        ("\tif (capable(CAP_SYS_ADMIN)) {", "capable", false),
        ("\twhile (need_resched()) {", "need_resched", false),
        ("\tlist_for_each_entry(pos, head, member) {", "list_for_each_entry", false),
        ("extern int serial_init(void);", "serial_init", false),
        ("void *kmalloc(size_t size, gfp_t flags);", "kmalloc", false),
        ("extern int debug_level;", "debug_level", false),
        ("struct list_head;", "list_head", false),
        ("\tstruct list_head *pos;", "list_head", false),
        ("static struct list_head *next_entry(struct list_head *p)", "list_head", false),
        ("\tfilp->f_op->dev_read(filp, buf);", "dev_read", false),
        ("\tdev.ops.dev_read(filp, buf);", "dev_read", false),
        ("\t.read = dev_read,", "dev_read", false),
        ("EXPORT_SYMBOL(kmalloc);", "kmalloc", false),
        ("module_init(serial_init);", "module_init", false),
        ("/* int main(void) { */", "main", false),
        (" * int main(void)", "main", false),
        ("// int main(void) {", "main", false),
        ("#include <linux/kmalloc.h>", "kmalloc", false),
        ("#ifdef PAGE_SIZE", "PAGE_SIZE", false),
        ("\tprintk(\"int main(void)\");", "main", false),
        ("\tif (PIDTYPE_PGID == type)", "PIDTYPE_PGID", false),
        ("\tcase PIDTYPE_PGID:", "PIDTYPE_PGID", false),
        ("\tgoto out;", "out", false),
    ];
    check(Lang::C, &table);
    check(Lang::Cpp, &table);
}

#[test]
#[rustfmt::skip]
fn cpp_definitions_and_uses() {
    check(
        Lang::Cpp,
        &[
            // Definitions.
            ("class Widget : public QObject {", "Widget", true),
            ("class Q_CORE_EXPORT QString", "QString", true),
            ("class Widget final : public Base {", "Widget", true),
            ("enum class Color : uint8_t {", "Color", true),
            ("template <typename T> class Vector {", "Vector", true),
            ("template <typename T>", "T", false),
            ("struct Point final {", "Point", true),
            ("namespace detail {", "detail", true),
            ("namespace llvm::detail {", "detail", true),
            ("namespace fs = std::filesystem;", "fs", true),
            ("using size_type = std::size_t;", "size_type", true),
            ("void Widget::paintEvent(QPaintEvent *event) {", "paintEvent", true),
            ("Widget::Widget(QWidget *parent) : QWidget(parent), d(new Private) {", "Widget", true),
            ("Widget::~Widget() {", "Widget", true),
            ("template <typename T> T Vector<T>::at(size_t i) const {", "at", true),
            ("std::vector<int> Parser::tokens() const", "tokens", true),
            ("auto make_widget(int n) -> std::unique_ptr<Widget> {", "make_widget", true),
            ("  int size() const { return size_; }", "size", true),
            ("  explicit Widget(QWidget *parent = nullptr) : QWidget(parent) {}", "Widget", true),
            ("[[nodiscard]] static bool is_valid(const Token &t) {", "is_valid", true),
            ("template <typename T> concept Hashable = requires(T a) {", "Hashable", true),
            ("inline namespace v1 {", "v1", true),
            ("TEST(WidgetTest, Paints) {", "TEST", true),
            // Uses and declarations.
            ("  void paintEvent(QPaintEvent *event) override;", "paintEvent", false),
            ("  virtual ~Widget() = default;", "Widget", false),
            ("  explicit Widget(QWidget *parent = nullptr);", "Widget", false),
            ("class Widget;", "Widget", false),
            ("  friend class Widget;", "Widget", false),
            ("  auto w = std::make_unique<Widget>(parent);", "Widget", false),
            ("  Widget w(parent);", "Widget", false),
            ("  w->paintEvent(event);", "paintEvent", false),
            ("  std::sort(v.begin(), v.end());", "sort", false),
            ("  return std::max(a,", "max", false),
            ("  std::max(a,", "max", false),
            ("using namespace std;", "std", false),
            ("  throw Error(\"bad\");", "Error", false),
            ("  delete widget;", "widget", false),
            ("  return tokens();", "tokens", false),
            ("  co_return make_widget(1);", "make_widget", false),
            ("  Widget *w = new Widget(this);", "Widget", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn java_definitions_and_uses() {
    check(
        Lang::Java,
        &[
            // Definitions.
            ("public class UserService {", "UserService", true),
            ("public final class Strings {", "Strings", true),
            ("public interface UserRepository extends JpaRepository<User, Long> {", "UserRepository", true),
            ("public @interface Transactional {", "Transactional", true),
            ("public enum Status {", "Status", true),
            ("public record Point(int x, int y) {", "Point", true),
            ("public sealed interface Shape permits Circle, Square {", "Shape", true),
            ("    public static void main(String[] args) {", "main", true),
            ("    private List<String> findNames(Map<String, Integer> counts) {", "findNames", true),
            ("    @Override public int hashCode() {", "hashCode", true),
            ("    @GetMapping(\"/users/{id}\") public ResponseEntity<User> getUser(@PathVariable Long id) {", "getUser", true),
            ("    protected abstract Foo createFoo(String name);", "createFoo", true),
            ("    User findByEmail(String email);", "findByEmail", true),
            ("    public static <T extends Comparable<T>> T max(List<T> items) {", "max", true),
            ("    String[] split(String s) {", "split", true),
            ("    public UserService(UserRepository repository) {", "UserService", true),
            ("    private static final Logger LOG = LoggerFactory.getLogger(UserService.class);", "LOG", true),
            ("    private final UserRepository repository;", "repository", true),
            ("    default void close() {", "close", true),
            // Uses.
            ("        return findNames(counts);", "findNames", false),
            ("        List<String> names = findNames(counts);", "findNames", false),
            ("        repository.findByEmail(email);", "findByEmail", false),
            ("        this.repository = repository;", "repository", false),
            ("        UserService service = new UserService(repo);", "UserService", false),
            ("        new UserService(repo);", "UserService", false),
            ("        Status s = Status.ACTIVE;", "Status", false),
            ("        throw new IllegalStateException(\"x\");", "IllegalStateException", false),
            ("        final int max = 3;", "max", false),
            ("        var names = findNames(counts);", "names", false),
            ("        String name = user.getName();", "name", false),
            ("    // public static void main(String[] args) {", "main", false),
            ("     * @see UserService#findNames(Map)", "findNames", false),
            ("        if (isValid(user)) {", "isValid", false),
            ("        } else if (check(user)) {", "check", false),
            ("        ACTIVE(\"active\"),", "ACTIVE", false),
            ("        System.out.println(\"public void main() {\");", "main", false),
            ("import com.example.UserService;", "UserService", false),
            ("public class Admin extends UserService {", "UserService", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn kotlin_definitions_and_uses() {
    check(
        Lang::Kotlin,
        &[
            // Definitions.
            ("fun main(args: Array<String>) {", "main", true),
            ("    override fun onCreate(savedInstanceState: Bundle?) {", "onCreate", true),
            ("    suspend fun fetchUser(id: String): User =", "fetchUser", true),
            ("inline fun <reified T> Gson.fromJson(json: String): T =", "fromJson", true),
            ("fun <T> List<T>.second(): T = this[1]", "second", true),
            ("fun String?.orEmpty(): String = this ?: \"\"", "orEmpty", true),
            ("data class User(val id: Long, val name: String)", "User", true),
            ("data class User(val id: Long, val name: String)", "name", true),
            ("sealed interface UiState {", "UiState", true),
            ("enum class Direction { NORTH, SOUTH }", "Direction", true),
            ("object Singleton {", "Singleton", true),
            ("    companion object Factory {", "Factory", true),
            ("fun interface Listener {", "Listener", true),
            ("typealias Handler = (Event) -> Unit", "Handler", true),
            ("    private val viewModel: MainViewModel by viewModels()", "viewModel", true),
            ("const val MAX_RETRIES = 3", "MAX_RETRIES", true),
            ("    lateinit var adapter: UserAdapter", "adapter", true),
            ("val Context.dataStore: DataStore<Preferences> by preferencesDataStore(\"settings\")", "dataStore", true),
            ("annotation class Inject", "Inject", true),
            // Uses.
            ("    val user = fetchUser(id)", "fetchUser", false),
            ("    fetchUser(id)", "fetchUser", false),
            ("    return fetchUser(id)", "fetchUser", false),
            ("    viewModel.load()", "viewModel", false),
            ("    val (id, name) = user", "name", false),
            ("    adapter = UserAdapter(items)", "adapter", false),
            ("    val u = User(1, \"a\")", "User", false),
            ("class Admin : User() {", "User", false),
            ("    // fun main() {", "main", false),
            ("    if (isReady()) {", "isReady", false),
            ("    println(\"fun main() {\")", "main", false),
            ("    override fun toString() = name", "name", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn csharp_definitions_and_uses() {
    check(
        Lang::CSharp,
        &[
            // Definitions.
            ("namespace Contoso.Orders;", "Orders", true),
            ("namespace Contoso {", "Contoso", true),
            ("public class OrderService : IOrderService", "OrderService", true),
            ("public sealed partial class MainWindow : Window", "MainWindow", true),
            ("internal struct Vector3", "Vector3", true),
            ("public record Person(string FirstName, string LastName);", "Person", true),
            ("public readonly record struct Point(int X, int Y);", "Point", true),
            ("public interface IOrderService", "IOrderService", true),
            ("    public async Task<int> CountAsync(CancellationToken ct = default)", "CountAsync", true),
            ("    [HttpGet(\"{id}\")] public async Task<IActionResult> Get(int id)", "Get", true),
            ("    public static T Parse<T>(string s) where T : IParsable<T>", "Parse", true),
            ("    public int Count { get; set; }", "Count", true),
            ("    public string Name => _name;", "Name", true),
            ("    public override string ToString() => $\"{X}, {Y}\";", "ToString", true),
            ("    private readonly ILogger<OrderService> _logger;", "_logger", true),
            ("    public const int MaxItems = 100;", "MaxItems", true),
            ("    public event EventHandler Changed;", "Changed", true),
            ("    public delegate void Notify(string message);", "Notify", true),
            ("    public (int, string) Lookup(int id)", "Lookup", true),
            ("    int? Find(string key);", "Find", true),
            ("    public OrderService(ILogger<OrderService> logger)", "OrderService", true),
            // Uses.
            ("        var count = await CountAsync(ct);", "CountAsync", false),
            ("        await CountAsync(ct);", "CountAsync", false),
            ("        return Parse<int>(s);", "Parse", false),
            ("        _logger.LogInformation(\"x\");", "_logger", false),
            ("        var svc = new OrderService(logger);", "OrderService", false),
            ("        OrderService svc = Create();", "OrderService", false),
            ("        Count = 3;", "Count", false),
            ("        if (Count == 0) {", "Count", false),
            ("        using var scope = provider.CreateScope();", "scope", false),
            ("        foreach (var item in items) {", "item", false),
            ("    // public int Count { get; set; }", "Count", false),
            ("        Console.WriteLine(\"public int Count { get; }\");", "Count", false),
            ("using Contoso.Orders;", "Orders", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn ruby_definitions_and_uses() {
    check(
        Lang::Ruby,
        &[
            // Definitions.
            ("  def create", "create", true),
            ("  def initialize(name, options = {})", "initialize", true),
            ("  def self.find_by_token(token)", "find_by_token", true),
            ("  def name=(value)", "name", true),
            ("  private def compute_total", "compute_total", true),
            ("class UsersController < ApplicationController", "UsersController", true),
            ("class Admin::UsersController < ApplicationController", "UsersController", true),
            ("module ActiveRecord", "ActiveRecord", true),
            ("  VERSION = \"7.1.0\"", "VERSION", true),
            ("  DEFAULT_OPTIONS = { limit: 10 }.freeze", "DEFAULT_OPTIONS", true),
            ("  attr_accessor :name, :email", "email", true),
            ("  attr_reader :name", "name", true),
            ("  scope :active, -> { where(active: true) }", "active", true),
            ("  has_many :comments, dependent: :destroy", "comments", true),
            ("  belongs_to :author, class_name: \"User\"", "author", true),
            ("  define_method(:title) { @title }", "title", true),
            ("  alias_method :to_s, :name", "to_s", true),
            ("  alias to_str to_s", "to_str", true),
            // Uses.
            ("    @user = User.create(user_params)", "create", false),
            ("    create(user_params)", "create", false),
            ("    user.create!", "create", false),
            ("  def create!", "create", false),
            ("  def valid?", "valid", false),
            ("    name = params[:name]", "name", false),
            ("    @name = name", "name", false),
            ("    self.name = value", "name", false),
            ("    return VERSION", "VERSION", false),
            ("    if VERSION == \"1\"", "VERSION", false),
            ("    render :show", "show", false),
            ("  # def create", "create", false),
            ("    puts \"def create\"", "create", false),
            ("  has_many :comments, through: :posts", "posts", false),
            ("  alias_method :to_s, :name", "name", false),
            ("class Admin < UsersController", "UsersController", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn lua_definitions_and_uses() {
    let table = [
        // Definitions (Neovim plugins).
        ("function M.setup(opts)", "setup", true),
        ("local function get_clients(bufnr)", "get_clients", true),
        ("function Buffer:attach(client)", "attach", true),
        ("function vim.lsp.util.make_position_params(win)", "make_position_params", true),
        ("function setup()", "setup", true),
        ("M.setup = function(opts)", "setup", true),
        ("  on_attach = function(client, bufnr)", "on_attach", true),
        ("local api = vim.api", "api", true),
        ("local ok, telescope = pcall(require, \"telescope\")", "telescope", true),
        ("local config", "config", true),
        ("M.defaults = {", "defaults", true),
        ("DEFAULT_TIMEOUT = 500", "DEFAULT_TIMEOUT", true),
        ("local MAX <const> = 10", "MAX", true),
        // Uses.
        ("  require(\"plugin\").setup({})", "setup", false),
        ("  M.setup(opts)", "setup", false),
        ("  setup()", "setup", false),
        ("  local clients = get_clients(0)", "get_clients", false),
        ("  return get_clients(bufnr)", "get_clients", false),
        ("  buf:attach(client)", "attach", false),
        ("  if api.nvim_buf_is_valid(buf) then", "api", false),
        ("  self.config = config", "config", false),
        ("  config = vim.tbl_extend(\"force\", config, opts)", "config", false),
        ("  if config == nil then", "config", false),
        ("-- function M.setup(opts)", "setup", false),
        ("  print(\"function M.setup(opts)\")", "setup", false),
        ("local t = { setup = 1 }", "setup", false),
    ];
    check(Lang::Lua, &table);
    check(Lang::Luau, &table);
}

#[test]
#[rustfmt::skip]
fn luau_type_aliases() {
    check(
        Lang::Luau,
        &[
            ("type Props = {", "Props", true),
            ("export type State<T> = {", "State", true),
            ("local Players = game:GetService(\"Players\")", "Players", true),
            ("function PlayerData:Load(player: Player): boolean", "Load", true),
            ("local function onPlayerAdded(player: Player)", "onPlayerAdded", true),
            ("Players.PlayerAdded:Connect(onPlayerAdded)", "onPlayerAdded", false),
            ("  local props: Props = {}", "Props", false),
            ("  return Players:GetPlayers()", "Players", false),
        ],
    );
    // `type` is an ordinary name in Lua.
    check(Lang::Lua, &[("type Props = {", "Props", false)]);
}

#[test]
#[rustfmt::skip]
fn swift_definitions_and_uses() {
    check(
        Lang::Swift,
        &[
            // Definitions.
            ("public func write(_ data: ByteBuffer) {", "write", true),
            ("    @inlinable public mutating func writeInteger<T: FixedWidthInteger>(_ integer: T) -> Int {", "writeInteger", true),
            ("    @objc(tableView:numberOfRowsInSection:) func tableView(_ tv: UITableView) -> Int {", "tableView", true),
            ("public final class EventLoopFuture<Value> {", "EventLoopFuture", true),
            ("public struct ByteBuffer {", "ByteBuffer", true),
            ("public protocol Channel: AnyObject {", "Channel", true),
            ("actor Counter {", "Counter", true),
            ("extension ByteBuffer: CustomStringConvertible {", "ByteBuffer", true),
            ("extension NIOCore.ByteBuffer {", "ByteBuffer", true),
            ("    public typealias InboundIn = ByteBuffer", "InboundIn", true),
            ("    associatedtype Element", "Element", true),
            ("    public private(set) var readerIndex: Int", "readerIndex", true),
            ("    private static let maxSize = 1 << 20", "maxSize", true),
            ("    nonisolated(unsafe) static var shared: Pool?", "shared", true),
            ("    class func makeDefault() -> Self {", "makeDefault", true),
            ("    override class var requiresMainQueueSetup: Bool { true }", "requiresMainQueueSetup", true),
            ("        let buffer = allocator.buffer(capacity: 16)", "buffer", true),
            ("        case heaptrack", "heaptrack", true),
            ("    case parsedStack(Stack, Int)", "parsedStack", true),
            ("    case get, post, put", "post", true),
            ("    case json = \"application/json\"", "json", true),
            ("    indirect case node(Tree, Tree)", "node", true),
            ("    public init(numberOfRequests: Int, eventLoop: EventLoop) {", "init", true),
            ("    init?(_ input: String) {", "init", true),
            ("public macro stringify<T>(_ value: T) -> (T, String) = #externalMacro(module: \"M\", type: \"S\")", "stringify", true),
            // Uses.
            ("extension NIOCore.ByteBuffer {", "NIOCore", false),
            ("    public typealias InboundIn = ByteBuffer", "ByteBuffer", false),
            ("        let buffer = allocator.buffer(capacity: 16)", "allocator", false),
            ("        let future = write(data)", "write", false),
            ("        write(data)", "write", false),
            ("        return write(data)", "write", false),
            ("        self.write(data)", "write", false),
            ("        case .success:", "success", false),
            ("        case .parsedStack(let stack, let count):", "parsedStack", false),
            ("        case heaptrack:", "heaptrack", false),
            ("        case let value:", "value", false),
            ("            case \"y\", \"yes\":", "yes", false),
            ("    func channelRead(context: ChannelHandlerContext, data: NIOAny) {", "context", false),
            ("        if let buffer = self.buffer {", "buffer", false),
            ("        guard let channel = channel else {", "channel", false),
            ("        let (head, tail) = pair", "tail", false),
            ("        self.init(storage: storage)", "init", false),
            ("        super.init()", "init", false),
            ("import NIOCore", "NIOCore", false),
            ("final class Handler: ChannelInboundHandler {", "ChannelInboundHandler", false),
            ("    // public func write(_ data: ByteBuffer) {", "write", false),
            ("        print(\"func write() {\")", "write", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn scala_definitions_and_uses() {
    check(
        Lang::Scala,
        &[
            // Definitions.
            ("  def map[B](f: A => B): Option[B] =", "map", true),
            ("  final def flatMap[B](f: A => F[B]): F[B] = ???", "flatMap", true),
            ("  implicit def catsStdInstancesForOption: Traverse[Option] = new Traverse[Option] {", "catsStdInstancesForOption", true),
            ("  override protected def run(): Unit = {", "run", true),
            ("  private[data] val empty: Chain[Nothing] = Empty", "empty", true),
            ("  lazy val default: Eq[Any] = Eq.fromUniversalEquals", "default", true),
            ("  var count = 0", "count", true),
            ("sealed abstract class Validated[+E, +A] extends Product with Serializable {", "Validated", true),
            ("final case class Kleisli[F[_], -A, B](run: A => F[B]) { self =>", "Kleisli", true),
            ("case object Empty extends Chain[Nothing]", "Empty", true),
            ("trait Functor[F[_]] extends Invariant[F] { self =>", "Functor", true),
            ("object Eval extends EvalInstances {", "Eval", true),
            ("  type Id[A] = A", "Id", true),
            ("  opaque type Timeout = Long", "Timeout", true),
            ("enum Color(val rgb: Int):", "Color", true),
            ("  case Red, Green, Blue", "Green", true),
            ("  case Red, Green, Blue", "Blue", true),
            ("  case Cons[A](head: A, tail: List[A]) extends List[A]", "Cons", true),
            ("  case Leaf(value: Int)", "Leaf", true),
            ("package object data extends DataInstances {", "data", true),
            ("  given intOrder: Order[Int] with", "intOrder", true),
            ("  extension (s: String) def shout: String = s.toUpperCase", "shout", true),
            ("  @tailrec def loop(n: Int): Int =", "loop", true),
            ("  @deprecated(\"Use toList\", \"2.2.0\") def asList: List[A] = toList", "asList", true),
            // Uses.
            ("    val result = map(fa)(f)", "map", false),
            ("    fa.map(f)", "map", false),
            ("      case Right(b) => b", "Right", false),
            ("      case None => default", "None", false),
            ("      case None => default", "default", false),
            ("      case x: StackSafeMonad[G] =>", "x", false),
            ("      case Valid(a) if a > 0 =>", "Valid", false),
            ("    val x = new Kleisli(run)", "Kleisli", false),
            ("    val Some(head) = list.headOption", "head", false),
            ("class OptionT[F[_], A](value: F[Option[A]]) extends Serializable", "Serializable", false),
            ("enum Color(val rgb: Int):", "rgb", false),
            ("  given Order[Int] with", "Order", false),
            ("  extension (s: String) def shout: String = s.toUpperCase", "s", false),
            ("package cats.data", "data", false),
            ("import cats.data.Validated", "Validated", false),
            ("  // def map[B](f: A => B): Option[B]", "map", false),
            ("   * def map[B](f: A => B)", "map", false),
            ("    println(\"def map\")", "map", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn elixir_definitions_and_uses() {
    check(
        Lang::Elixir,
        &[
            // Definitions.
            ("defmodule Logger do", "Logger", true),
            ("defmodule Logger.Backends.Console do", "Console", true),
            ("defprotocol Enumerable do", "Enumerable", true),
            ("defimpl Enumerable, for: MapSet do", "MapSet", true),
            ("defimpl String.Chars, for: URI.Parser do", "Parser", true),
            ("  def start_link(opts) do", "start_link", true),
            ("  def child_spec(opts), do: %{id: __MODULE__}", "child_spec", true),
            ("  defp do_format(message, opts) when is_binary(message) do", "do_format", true),
            ("  def size do", "size", true),
            ("  def put_module_level(mod, level)", "put_module_level", true),
            ("  defmacro __using__(opts) do", "__using__", true),
            ("  defguard is_even(term) when is_integer(term) and rem(term, 2) == 0", "is_even", true),
            ("  defdelegate get_module_level(mod), to: :logger", "get_module_level", true),
            ("  defn softmax(t), do: Nx.exp(t) / Nx.sum(Nx.exp(t))", "softmax", true),
            ("  @type level :: :error | :info", "level", true),
            ("  @typep state :: map()", "state", true),
            ("  @opaque t(value) :: %__MODULE__{map: %{optional(value) => []}}", "t", true),
            ("  @callback init(args :: term) :: {:ok, state}", "init", true),
            ("  @default_timeout 5_000", "default_timeout", true),
            ("  @levels [:error, :warning, :info, :debug]", "levels", true),
            ("  @doc_prefix \"See: \"", "doc_prefix", true),
            // Uses.
            ("defmodule Logger.Backends.Console do", "Logger", false),
            ("defimpl Enumerable, for: MapSet do", "Enumerable", false),
            ("    start_link(opts)", "start_link", false),
            ("    {:ok, pid} = start_link(opts)", "start_link", false),
            ("    GenServer.start_link(__MODULE__, opts)", "start_link", false),
            ("    Enum.map(list, &do_format/1)", "do_format", false),
            ("  def valid?(term), do: true", "valid", false),
            ("  def update!(map, key, fun) do", "update", false),
            ("  def unquote(name)(opts) do", "unquote", false),
            ("  @doc \"Starts the logger.\"", "doc", false),
            ("  @spec start_link(keyword) :: GenServer.on_start()", "start_link", false),
            ("  @impl true", "impl", false),
            ("  @behaviour GenServer", "GenServer", false),
            ("    @default_timeout", "default_timeout", false),
            ("    |> Keyword.put(:timeout, @default_timeout)", "default_timeout", false),
            ("    @levels |> Enum.member?(level)", "levels", false),
            ("  defstruct [:name, :level]", "name", false),
            ("  alias Logger.Backends.Console", "Console", false),
            ("  # def start_link(opts) do", "start_link", false),
            ("    IO.puts(\"def start_link(opts) do\")", "start_link", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn haskell_definitions_and_uses() {
    check(
        Lang::Haskell,
        &[
            // Definitions.
            ("main :: IO ()", "main", true),
            ("main = do", "main", true),
            ("escapeHostName :: Text -> Text", "escapeHostName", true),
            ("isSpecialHostName h = h `elem` [\"*\", \"*4\"]", "isSpecialHostName", true),
            ("toMime (MTVndSingularJSON True) = \"application/vnd.pgrst.object+json\"", "toMime", true),
            ("pgErrorStatus _ (SQL.ConnectionUsageError _) = HTTP.status503", "pgErrorStatus", true),
            ("fib n | n < 2 = n", "fib", true),
            ("  where go acc [] = acc", "go", true),
            ("    go acc (x:xs) = go (acc + x) xs", "go", true),
            ("  fmap :: (a -> b) -> f a -> f b", "fmap", true),
            ("decode, encode :: Text -> Text", "encode", true),
            ("data OutputFormat = OutputCsv | OutputJson", "OutputFormat", true),
            ("data OutputFormat = OutputCsv | OutputJson", "OutputCsv", true),
            ("data OutputFormat = OutputCsv | OutputJson", "OutputJson", true),
            ("newtype Setting = Setting (Config -> Config)", "Setting", true),
            ("newtype Wrap = Wrap { unWrap :: Int }", "unWrap", true),
            ("  = Dump OutputFormat", "Dump", true),
            ("  | CheckWildcards [Text]", "CheckWildcards", true),
            ("  | Env !LibPQ.Result !LibPQ.Row", "Env", true),
            ("data SpecState = SpecState {", "SpecState", true),
            ("  { specStateName :: Text", "specStateName", true),
            ("  , specStateCount :: Int", "specStateCount", true),
            ("type ModuleAliases = [(Text, [(Text, [FilePath])])]", "ModuleAliases", true),
            ("type family Elem c", "Elem", true),
            ("class HasConstructor f where", "HasConstructor", true),
            ("class (Monad m) => MonadLogger m where", "MonadLogger", true),
            ("instance Csv.ToField ImportQualified where", "ImportQualified", true),
            ("instance Show a => Show (Tree a) where", "Tree", true),
            ("module Hasql.TestingKit.Constants where", "Constants", true),
            ("module Main (main) where", "Main", true),
            ("pattern Zero :: Int", "Zero", true),
            ("  Lit :: Int -> Expr Int", "Lit", true),
            // Uses.
            ("  let x = toMime ct", "toMime", false),
            ("  where result = escapeHostName h", "escapeHostName", false),
            ("import PostgREST.Error (pgErrorStatus)", "pgErrorStatus", false),
            ("import qualified Data.Text as T", "T", false),
            ("    x <- fetch conn", "fetch", false),
            ("  when (x == y) $ throwIO err", "when", false),
            ("  | Just x <- lookup k m = x", "Just", false),
            ("  | otherwise = go acc xs", "otherwise", false),
            ("  = Just <$> decode v", "Just", false),
            ("  { specStateName = name", "specStateName", false),
            ("    timeout = 5,", "timeout", false),
            ("data Foo = Foo Int | Bar (Maybe Baz)", "Baz", false),
            ("  deriving (Show, Eq)", "Show", false),
            ("instance Csv.ToField ImportQualified where", "ToField", false),
            ("instance Show a => Show (Tree a) where", "Show", false),
            ("class (Monad m) => MonadLogger m where", "Monad", false),
            ("module Hasql.TestingKit.Constants where", "Hasql", false),
            ("module Main (main) where", "main", false),
            ("makeLenses ''AppState", "AppState", false),
            ("go' acc = acc", "go", false),
            ("-- | main :: IO ()", "main", false),
            ("{-# INLINE escapeHostName #-}", "escapeHostName", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn zig_definitions_and_uses() {
    check(
        Lang::Zig,
        &[
            // Definitions.
            ("pub fn init(allocator: std.mem.Allocator, options: Options) !Self {", "init", true),
            ("fn lessThan(context: void, a: u64, b: u64) bool {", "lessThan", true),
            ("    pub inline fn push(self: *Queue, link: *T) void {", "push", true),
            ("export fn tb_client_init(out: *tb_client_t) callconv(.C) Status {", "tb_client_init", true),
            ("pub extern \"c\" fn write(fd: c_int, buf: [*]const u8, count: usize) isize;", "write", true),
            ("pub const Replica = struct {", "Replica", true),
            ("pub const message_size_max = 1 * 1024 * 1024;", "message_size_max", true),
            ("    const Self = @This();", "Self", true),
            ("        var i: usize = 0;", "i", true),
            ("threadlocal var buffer: [4096]u8 = undefined;", "buffer", true),
            ("comptime var count = 0;", "count", true),
            ("const assert = std.debug.assert;", "assert", true),
            ("    write: Grid.Write = undefined,", "write", true),
            ("    cluster: u128 = 0,", "cluster", true),
            // Uses.
            ("const std = @import(\"std\");", "std", false),
            ("const vsr = @import(\"vsr.zig\");", "vsr", false),
            ("    replica_count: u8,", "replica_count", false),
            ("    allocator: std.mem.Allocator,", "allocator", false),
            ("    const header = message.header;", "message", false),
            ("    try self.write(message);", "write", false),
            ("    write(fd, buf);", "write", false),
            ("    .cluster = cluster,", "cluster", false),
            ("    const size = @sizeOf(Header);", "sizeOf", false),
            ("    assert(x > 0);", "assert", false),
            ("test \"Cluster: smoke\" {", "Cluster", false),
            ("test init {", "init", false),
            ("    blk: {", "blk", false),
            ("    inline for (fields) |field| {", "field", false),
            ("// pub fn init() void {", "init", false),
            ("/// Returns the init value.", "init", false),
            ("    \\\\pub fn init() void {", "init", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn bash_definitions_and_uses() {
    check(
        Lang::Bash,
        &[
            // Definitions.
            ("_get_root() {", "_get_root", true),
            ("  _get_root() {", "_get_root", true),
            ("add_record () {", "add_record", true),
            ("_startswith() { _str=\"$1\"; }", "_startswith", true),
            ("function _info {", "_info", true),
            ("function _info() {", "_info", true),
            ("function cleanup", "cleanup", true),
            ("VER=3.1.4", "VER", true),
            ("PROJECT_NAME=\"acme.sh\"", "PROJECT_NAME", true),
            ("DEFAULT_PATHS=(/usr/bin /bin)", "DEFAULT_PATHS", true),
            ("export LE_WORKING_DIR=\"$HOME/.acme.sh\"", "LE_WORKING_DIR", true),
            ("readonly MAX_RETRIES=5", "MAX_RETRIES", true),
            ("  readonly LOCK_FILE=\"/tmp/lock\"", "LOCK_FILE", true),
            ("declare -A HOOKS=()", "HOOKS", true),
            ("  declare -gr CONFIG_DIR=\"$HOME/.config\"", "CONFIG_DIR", true),
            ("alias ll='ls -l'", "ll", true),
            // Uses.
            ("  _get_root \"$fulldomain\"", "_get_root", false),
            ("  if ! _get_root \"$fulldomain\"; then", "_get_root", false),
            ("  _info \"Adding record\"", "_info", false),
            ("  echo \"$VER\"", "VER", false),
            ("  echo \"${PROJECT_NAME}\"", "PROJECT_NAME", false),
            ("echo VER", "VER", false),
            ("  export _H1=\"Content-Type: application/json\"", "_H1", false),
            ("export LE_WORKING_DIR", "LE_WORKING_DIR", false),
            ("  local _domain=\"$1\"", "_domain", false),
            ("  _domain_id=\"$(echo \"$response\" | cut -d , -f 1)\"", "_domain_id", false),
            ("  declare -A seen=()", "seen", false),
            ("VER+=\"-dev\"", "VER", false),
            ("  [ -z \"$VER\" ] && VER=1", "VER", false),
            ("# _get_root() {", "_get_root", false),
            ("#!/usr/bin/env sh", "env", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn dart_definitions_and_uses() {
    check(
        Lang::Dart,
        &[
            // Definitions.
            ("class Client {", "Client", true),
            ("abstract interface class BaseClient implements Client {", "BaseClient", true),
            ("sealed class Result<T> {", "Result", true),
            ("mixin class Cancelable {", "Cancelable", true),
            ("mixin RetryMixin on BaseClient {", "RetryMixin", true),
            ("enum HttpMethod { get, post }", "HttpMethod", true),
            ("extension StringX on String {", "StringX", true),
            ("extension type UserId(int id) {", "UserId", true),
            ("typedef Headers = Map<String, String>;", "Headers", true),
            ("typedef void Callback(int code);", "Callback", true),
            ("Future<Response> head(Uri url, {Map<String, String>? headers}) =>", "head", true),
            ("Future<T> _withClient<T>(Future<T> Function(Client) fn) async {", "_withClient", true),
            ("void main() {", "main", true),
            ("main() async {", "main", true),
            ("  static Future<MultipartFile> fromPath(String field, String filePath,", "fromPath", true),
            ("  Stream<List<int>> _finalize(String boundary) async* {", "_finalize", true),
            ("  Future<StreamedResponse> send(BaseRequest request);", "send", true),
            ("  @override void close() => _inner.close();", "close", true),
            ("  String get method => _method;", "method", true),
            ("  bool get isEmpty;", "isEmpty", true),
            ("  set contentLength(int? value) {", "contentLength", true),
            ("  Request(this.method, this.url) : super(method, url);", "Request", true),
            ("  const RetryClient(this._inner);", "RetryClient", true),
            ("  RetryClient({", "RetryClient", true),
            ("  Response.bytes(List<int> bodyBytes, int statusCode) : super(statusCode);", "bytes", true),
            ("  factory Client() => IOClient();", "Client", true),
            ("  factory Response.fromJson(Map<String, dynamic> json) {", "fromJson", true),
            ("  final Client _inner;", "_inner", true),
            ("  final FutureOr<bool> Function(BaseResponse) _when;", "_when", true),
            ("  void Function(int)? onProgress;", "onProgress", true),
            ("  static const int maxRedirects = 5;", "maxRedirects", true),
            ("  late final HttpServer server;", "server", true),
            ("  int _retries = 3;", "_retries", true),
            ("const defaultTimeout = Duration(seconds: 30);", "defaultTimeout", true),
            ("final _log = Logger('http');", "_log", true),
            // Uses.
            ("    return head(url, headers: headers);", "head", false),
            ("    final response = await client.get(url);", "response", false),
            ("    final response = await client.get(url);", "get", false),
            ("    await send(request);", "send", false),
            ("    send(request);", "send", false),
            ("    _inner.close();", "close", false),
            ("  runApp(const MyApp());", "MyApp", false),
            ("      const Duration(milliseconds: 500) * math.pow(1.5, retryCount);", "Duration", false),
            ("    final client = Client();", "Client", false),
            ("    var request = new Request('GET', url);", "Request", false),
            ("  Isolate.spawn(entry, port);", "spawn", false),
            ("  test('sends a request', () async {", "test", false),
            ("    FutureOr<bool> Function(BaseResponse) when = _defaultWhen,", "when", false),
            ("      Foo() => 'foo',", "Foo", false),
            ("      ..headers.addAll(headers)", "addAll", false),
            ("    if (isValid(x)) {", "isValid", false),
            ("  Response.bytes(List<int> bodyBytes, int statusCode) : super(statusCode);", "Response", false),
            ("class RetryClient extends BaseClient {", "BaseClient", false),
            ("extension StringX on String {", "String", false),
            ("extension type UserId(int id) {", "type", false),
            ("    ffi.Void Function(", "Function", false),
            ("import 'package:http/http.dart' as http;", "http", false),
            ("  @override", "override", false),
            ("  // void close() => _inner.close();", "close", false),
            ("    print('void close() {');", "close", false),
        ],
    );
}

#[test]
#[rustfmt::skip]
fn a_name_must_be_a_whole_word() {
    check(
        Lang::TypeScript,
        &[
            ("function useStateful() {", "useState", false),
            ("function _useState() {", "useState", false),
            ("function $useState() {", "useState", false),
        ],
    );
    check(Lang::Python, &[("def caf\u{e9}():", "caf", false)]);
    check(Lang::Rust, &[("fn r#type() {}", "type", false)]);
}

#[test]
#[rustfmt::skip]
fn later_occurrences_are_examined() {
    check(
        Lang::Cpp,
        &[
            ("Widget::Widget() {", "Widget", true),
            ("Foo Foo::Foo() {", "Foo", true),
        ],
    );
    check(
        Lang::Rust,
        &[("fn parse_args() -> Args { parse_args_impl() }", "parse_args", true)],
    );
}

#[test]
fn lines_that_are_not_utf8_are_handled() {
    assert!(defines(
        Lang::C,
        b"int lookup(const char *s) /* \xff\xfe */ {\n",
        b"lookup"
    ));
    assert!(!defines(
        Lang::C,
        b"\tprintk(\"\xff\"); lookup(x);\n",
        b"lookup"
    ));
    assert!(defines(
        Lang::Python,
        b"def lookup(s=b'\xff'):\r\n",
        b"lookup"
    ));
    assert!(!defines(Lang::Python, b"def \xfflookup():", b"lookup"));
}

#[test]
fn huge_lines_return_and_only_their_start_is_examined() {
    let mut line = b"function minified(){".to_vec();
    while line.len() < 50_000 {
        line.extend_from_slice(b"var a=b(c,d);if(a){return e(a,f)}");
    }
    assert!(defines(Lang::JavaScript, &line, b"minified"));
    assert!(!defines(Lang::JavaScript, &line, b"e"));
    // A name every few bytes: only MAX_OCCURRENCES of them are tried.
    let crowded = b"a ".repeat(25_000);
    assert!(!defines(Lang::Go, &crowded, b"a"));
    // A definition past MAX_SCAN is not seen.
    let mut late = vec![b' '; MAX_SCAN];
    late.extend_from_slice(b"function late() {");
    assert!(!defines(Lang::JavaScript, &late, b"late"));
}

#[test]
fn a_word_is_contained_with_no_word_byte_beside_it() {
    use super::contains_word;
    assert!(contains_word(b"class Command {", b"Command"));
    assert!(contains_word(b"x: SubCommand; y: *Command", b"Command"));
    assert!(!contains_word(b"SubCommand Commands command_x", b"Command"));
    assert!(!contains_word(
        b"$Command Command_ Command\xc3\xa9",
        b"Command"
    ));
}
