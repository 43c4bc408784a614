/// The command line.
struct Options: Equatable {
    var script: String?
    var size: TerminalSize?
    var help = false
    /// Where to write the login screen's live graph when the script ends (`.txt`: text, else Graphviz DOT).
    var graph: String?
    /// Where to write a Chrome trace of the script's run.
    var trace: String?

    static let usage = """
        Usage: tether-demo [--script FILE] [--size COLSxROWS] [--graph FILE] [--trace FILE] [--help]

        The login form and live search of the ReactiveCocoa tutorials, built with Tether, in your terminal.

        In a terminal it takes over the screen: Tab/Shift-Tab move between fields (and screens),
        Enter signs in, ←/→ switch screens, Ctrl-C quits and restores the terminal.

        Without a terminal it prints each screen as plain text after each step of a script, on a
        virtual clock (fast and identical on every run):
          --script FILE   run FILE ("-" for standard input)
          (stdin)         when standard input is not a terminal, its lines are the script;
                          when it is empty, a short built-in tour plays
          --size 80x24    the screen size for scripts (default 80x24)
          --graph FILE    after the script, write the login screen's live subscriptions as a graph
                          (FILE.txt: text; otherwise Graphviz DOT: dot -Tpng FILE -o graph.png)
          --trace FILE    record the script's run as a Chrome trace (open it in Perfetto)

        Script lines (one step each; # starts a comment):
          type tether                  one keystroke per character
          type san every 100ms         waiting after each keystroke
          type "new york"              quoted text (keeps spaces at the ends)
          key tab                      tab shift-tab enter backspace esc up down left right space ctrl-c
          key backspace x4             a key, repeated
          wait 500ms                   advance the clock (ms or s)
          resize 100x30                as if the window changed size
          expect "enabled"             exit 1 unless the screen contains the text

        Exit status: 0 done, 1 an expect failed or the terminal failed, 2 bad arguments or script.
        """

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(script: String? = nil, size: TerminalSize? = nil, help: Bool = false) {
        self.script = script
        self.size = size
        self.help = help
    }

    init(parsing arguments: [String]) throws(Failure) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                help = true
            case "--script":
                guard let value = remaining.popFirst() else { throw Failure(description: "--script needs a file") }
                script = value
            case "--graph":
                guard let value = remaining.popFirst() else { throw Failure(description: "--graph needs a file") }
                graph = value
            case "--trace":
                guard let value = remaining.popFirst() else { throw Failure(description: "--trace needs a file") }
                trace = value
            case "--size":
                guard let value = remaining.popFirst(), let size = TerminalSize(parsing: value) else {
                    throw Failure(description: "--size needs a size like 100x30")
                }
                self.size = size
            default:
                throw Failure(description: "unknown argument \"\(argument)\"")
            }
        }
    }
}
