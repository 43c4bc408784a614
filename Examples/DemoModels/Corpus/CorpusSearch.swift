import Foundation

/// What one search found.
public struct SearchResults: Equatable, Sendable {
    /// The query these results answer.
    public var query: String
    /// The matching entries, best first.
    public var matches: [String]

    /// The `matches` found for `query`.
    public init(query: String, matches: [String]) {
        self.query = query
        self.matches = matches
    }
}

/// Ranks the corpus entries that contain a query: entries that start with it first, then entries
/// with a word that starts with it, then the rest; alphabetical within each group. Case- and
/// diacritic-insensitive.
///
/// ```swift
/// CorpusSearch.matches(for: "san", in: ["Busan, South Korea", "San Diego, United States"])
/// // ["San Diego, United States", "Busan, South Korea"]
/// ```
public enum CorpusSearch {
    /// The entries of `corpus` containing `query` (case- and diacritic-insensitive): those starting with
    /// it first, then those with a word starting with it, then the rest; alphabetical within each group.
    public static func matches(for query: String, in corpus: [String]) -> [String] {
        let needle = fold(query.trimmingCharacters(in: .whitespaces))
        guard !needle.isEmpty else { return [] }
        var ranked: [(rank: Int, entry: String)] = []
        for entry in corpus {
            let haystack = fold(entry)
            guard let range = haystack.range(of: needle) else { continue }
            let rank: Int
            if range.lowerBound == haystack.startIndex {
                rank = 0
            } else if haystack.contains(" " + needle) || haystack.contains("-" + needle) {
                rank = 1
            } else {
                rank = 2
            }
            ranked.append((rank, entry))
        }
        return ranked.sorted { ($0.rank, $0.entry) < ($1.rank, $1.entry) }.map(\.entry)
    }

    /// `text` without case and diacritics, for comparing.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
