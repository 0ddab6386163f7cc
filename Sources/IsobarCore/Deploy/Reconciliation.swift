/// What a deploy does when the ledger cannot say what is on the target — it is damaged,
/// its journal has no header, or the operator asked (`--repair`, `--from-scratch`): the
/// target is listed and brought to the site. Every file of the site is uploaded (a
/// listing cannot tell whether a file holds the site's bytes); every file on the target
/// that Isobar owns and the site no longer has is deleted, as are the temporary names of
/// unfinished uploads. A file Isobar cannot tell is its own is left in place and named,
/// unless `fromScratch` says the target holds nothing but the site.
struct Reconciliation: Equatable {
    var plan: DeployPlan
    /// The ledger to start from: each file of Isobar's the target has (those to delete
    /// among them), its bytes unknown, so a deploy killed part-way leaves them in the
    /// ledger for the next one to upload or delete.
    var owned: [String: String]
    /// On the target, not the site's and not in the ledger: left in place.
    var foreign: [String]
    /// Names in the listing that are not paths of the site's: never touched.
    var unusable: [String]

    /// `files`: the site's files and stamps; `owned`: what the (damaged) ledger still
    /// says Isobar uploaded; `listing`: every file on the target.
    init(files: [String: String], owned: Set<String>, listing: [String], fromScratch: Bool) {
        var present: Set<String> = []
        var unusable: [String] = []
        for path in listing {
            if SitePath.problem(path) == nil { present.insert(path) } else { unusable.append(path) }
        }
        let extra = present.subtracting(files.keys)
        let leftovers = extra.filter(isDeployLeftover)
        let ours = fromScratch ? extra : extra.intersection(owned).union(leftovers)
        self.owned = Dictionary(uniqueKeysWithValues: present.intersection(owned).union(ours).map { ($0, DeployLedger.unknown) })
        plan = DeployPlan.make(files: files, uploaded: [:])
        plan.deletions = ours.sorted()
        foreign = extra.subtracting(ours).sorted()
        self.unusable = unusable.sorted()
    }

    /// What the operator should know: the files left in place, the names never touched.
    var warnings: [String] {
        var lines = unusable.map { "\(Deployer.quoted($0)) on the target is not a path of the site's: left alone" }
        if !foreign.isEmpty {
            let names = foreign.prefix(10).map(Deployer.quoted).joined(separator: ", ")
            let more = foreign.count > 10 ? " and \(foreign.count - 10) more" : ""
            lines.append("\(foreign.count) file\(foreign.count == 1 ? " is" : "s are") on the target, not the site's and not known "
                + "to be Isobar's: left in place: \(names)\(more)\n"
                + "  hint: if the target holds nothing but the site, `isobar deploy --from-scratch` deletes them")
        }
        return lines
    }
}
