//! Every seed passes every check of its target: the checks hold on known-good input.

#[test]
fn view_ops_seeds() {
    for (name, data) in sroar_fuzz::seeds::view_ops() {
        eprintln!("view_ops seed {name}");
        sroar_fuzz::view_ops(&data);
    }
}

#[test]
fn portable_seeds() {
    for (name, data) in sroar_fuzz::seeds::portable() {
        eprintln!("portable seed {name}");
        sroar_fuzz::portable::check(&data);
    }
}

#[test]
fn structured_seeds() {
    use arbitrary::{Arbitrary, Unstructured};
    for (name, data) in sroar_fuzz::seeds::structured() {
        eprintln!("structured seed {name}");
        let mut u = Unstructured::new(&data);
        if let Ok(case) = sroar_fuzz::structured::Case::arbitrary(&mut u) {
            sroar_fuzz::structured::check(&case);
        }
    }
}
