//! The `.npz` writer and reader of `arena::npz`: arrays read back with their types, shapes
//! and elements; headers as NumPy pads them; damaged files refused in words. (NumPy itself
//! reads them in the Python package's tests.)

use crate::common;

use std::path::PathBuf;

use arena::npz::{Dtype, Npz, NpzWriter, str_element};

fn scratch(name: &str) -> PathBuf {
    common::scratch("npz").join(name)
}

#[test]
fn arrays_written_are_read_back_with_their_types_and_shapes() {
    let path = scratch("round.npz");
    let mut npz = NpzWriter::create(&path).unwrap();
    npz.array("count", Dtype::U32, &[], &7u32.to_le_bytes())
        .unwrap();
    let planes: Vec<u8> = (0..24).collect();
    npz.begin("planes", Dtype::U8, &[2, 3, 4]).unwrap();
    npz.write(&planes[..10]).unwrap();
    npz.write(&planes[10..]).unwrap();
    npz.end().unwrap();
    let mut moves = Vec::new();
    for text in ["h8", "a10", "é"] {
        str_element(text, 3, &mut moves);
    }
    npz.array("moves", Dtype::Str(3), &[3], &moves).unwrap();
    let values: Vec<u8> = [-1.5f32, 0.25]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    npz.array("values", Dtype::F32, &[2], &values).unwrap();
    npz.finish().unwrap();

    let read = Npz::open(&path).unwrap();
    assert_eq!(
        read.names().collect::<Vec<_>>(),
        ["count", "planes", "moves", "values"]
    );
    let count = read.array("count").unwrap();
    assert_eq!(
        (count.shape.as_slice(), count.numbers()),
        (&[][..], vec![7.0])
    );
    let back = read.array("planes").unwrap();
    assert_eq!(
        (back.dtype, back.shape, back.data),
        (Dtype::U8, vec![2, 3, 4], planes)
    );
    assert_eq!(read.array("moves").unwrap().texts(), ["h8", "a10", "é"]);
    assert_eq!(read.array("values").unwrap().numbers(), [-1.5, 0.25]);
    let missing = read.array("nothing").err().unwrap().to_string();
    assert!(missing.contains("no array `nothing`"), "{missing}");
}

#[test]
fn every_npy_header_is_padded_to_64_bytes() {
    for shape in [&[][..], &[5], &[2, 3, 15, 15]] {
        let path = scratch("header.npz");
        let mut npz = NpzWriter::create(&path).unwrap();
        let size = shape.iter().product::<usize>() * 2;
        npz.array("a", Dtype::I16, shape, &vec![0; size]).unwrap();
        npz.finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        // The local header (30 bytes and the name `a.npy`), then the array's own.
        let npy = &bytes[35..];
        assert!(npy.starts_with(b"\x93NUMPY\x01\x00"));
        let header = 10 + usize::from(u16::from_le_bytes([npy[8], npy[9]]));
        assert_eq!(header % 64, 0, "{shape:?}");
        assert_eq!(npy[header - 1], b'\n');
    }
}

#[test]
fn a_file_that_is_not_an_npz_is_refused_in_words() {
    let path = scratch("not.npz");
    std::fs::write(&path, "experiment,variant\n").unwrap();
    let error = Npz::open(&path).err().unwrap().to_string();
    assert!(error.contains("not an .npz file"), "{error}");
    let mut npz = NpzWriter::create(&path).unwrap();
    npz.array("x", Dtype::U8, &[4], &[1, 2, 3, 4]).unwrap();
    npz.finish().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    // A header that says 5 elements where 4 are stored.
    let shape_at = bytes.windows(4).position(|w| w == b"(4,)").unwrap();
    bytes[shape_at + 1] = b'5';
    std::fs::write(&path, &bytes).unwrap();
    let error = Npz::open(&path)
        .unwrap()
        .array("x")
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("array `x`") && error.contains("wants 5"),
        "{error}"
    );
}
