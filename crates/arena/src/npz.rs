//! NumPy's `.npz` files, written and read by hand: a zip archive (stored, not compressed) of
//! `.npy` arrays, one per entry, which `numpy.load` opens in one call. Only what the position
//! export needs: little-endian numbers and fixed-width Unicode strings, C order, zip32 (every
//! entry and the whole archive under 4 GiB, under 65,535 entries).
//!
//! The formats as their owners document them: NumPy's `numpy.lib.format` (the `.npy` header: a
//! magic string, a version, a Python dict literal padded to a multiple of 64 bytes) and
//! PKWARE's APPNOTE (local headers, the central directory, the end record). An array is
//! streamed into the archive ([`NpzWriter::begin`], [`NpzWriter::write`], [`NpzWriter::end`]):
//! its size is known from its shape, and its CRC-32 is written back into its local header when
//! it ends, so an export holds no more than one position's numbers at a time.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::ArenaError;

/// The element type of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `uint8`.
    U8,
    /// `int16`, little-endian.
    I16,
    /// `uint32`, little-endian.
    U32,
    /// `int32`, little-endian.
    I32,
    /// `float32`, little-endian.
    F32,
    /// Unicode strings of at most this many characters (`<U{n}`, UTF-32 code points).
    Str(usize),
}

impl Dtype {
    /// NumPy's `descr` of the type.
    pub fn descr(self) -> String {
        match self {
            Dtype::U8 => "|u1".into(),
            Dtype::I16 => "<i2".into(),
            Dtype::U32 => "<u4".into(),
            Dtype::I32 => "<i4".into(),
            Dtype::F32 => "<f4".into(),
            Dtype::Str(chars) => format!("<U{chars}"),
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Dtype::U8 => 1,
            Dtype::I16 => 2,
            Dtype::U32 | Dtype::I32 | Dtype::F32 => 4,
            Dtype::Str(chars) => 4 * chars,
        }
    }

    fn parse(descr: &str) -> Option<Dtype> {
        Some(match descr {
            "|u1" => Dtype::U8,
            "<i2" => Dtype::I16,
            "<u4" => Dtype::U32,
            "<i4" => Dtype::I32,
            "<f4" => Dtype::F32,
            _ => Dtype::Str(descr.strip_prefix("<U")?.parse().ok()?),
        })
    }
}

/// The bytes of `text` as one element of [`Dtype::Str`]`(chars)`: its code points, then zeros.
pub fn str_element(text: &str, chars: usize, out: &mut Vec<u8>) {
    let mut written = 0;
    for c in text.chars().take(chars) {
        out.extend_from_slice(&u32::from(c).to_le_bytes());
        written += 1;
    }
    out.resize(out.len() + 4 * (chars - written), 0);
}

/// The `.npy` header of an array of `dtype` and `shape` (version 1.0).
fn npy_header(dtype: Dtype, shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {dims}, }}",
        dtype.descr()
    );
    // Magic (6), version (2), length (2), the dict and its newline: a multiple of 64 bytes.
    let unpadded = 10 + dict.len() + 1;
    dict.extend(std::iter::repeat_n(
        ' ',
        unpadded.next_multiple_of(64) - unpadded,
    ));
    dict.push('\n');
    let mut header = b"\x93NUMPY\x01\x00".to_vec();
    header.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    header.extend_from_slice(dict.as_bytes());
    header
}

/// What zip32 can say: sizes, offsets and counts.
const ZIP32_MAX: u64 = u32::MAX as u64 - 1;
/// 1980-01-01, the earliest date a zip entry can carry: entries carry no date of their own, so
/// the same positions make the same bytes.
const DOS_DATE: u16 = (1 << 5) | 1;

/// One entry, as the central directory lists it.
struct Entry {
    name: String,
    crc: u32,
    size: u32,
    offset: u32,
}

/// The entry being written.
struct Open {
    name: String,
    offset: u64,
    expected: u64,
    written: u64,
    crc: crc32fast::Hasher,
}

/// An `.npz` file being written. Nothing is complete until [`NpzWriter::finish`].
pub struct NpzWriter {
    path: PathBuf,
    out: BufWriter<File>,
    offset: u64,
    entries: Vec<Entry>,
    open: Option<Open>,
}

impl NpzWriter {
    /// Creates (or truncates) `path`.
    pub fn create(path: &Path) -> Result<NpzWriter, ArenaError> {
        let file = File::create(path).map_err(|e| ArenaError::Io {
            path: path.to_path_buf(),
            action: "create the positions file",
            error: e.to_string(),
        })?;
        Ok(NpzWriter {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            offset: 0,
            entries: Vec::new(),
            open: None,
        })
    }

    fn io(&self, error: std::io::Error) -> ArenaError {
        ArenaError::Io {
            path: self.path.clone(),
            action: "write the positions file",
            error: error.to_string(),
        }
    }

    fn too_large(&self) -> ArenaError {
        ArenaError::Io {
            path: self.path.clone(),
            action: "write the positions file",
            error: "it would pass 4 GiB, the most a zip32 archive holds: export fewer \
                    positions (--per-game, --fraction, --dedup)"
                .into(),
        }
    }

    fn put(&mut self, bytes: &[u8]) -> Result<(), ArenaError> {
        self.out.write_all(bytes).map_err(|e| self.io(e))?;
        self.offset += bytes.len() as u64;
        Ok(())
    }

    /// Writes a whole array: `data` holds its elements in C order.
    pub fn array(
        &mut self,
        name: &str,
        dtype: Dtype,
        shape: &[usize],
        data: &[u8],
    ) -> Result<(), ArenaError> {
        self.begin(name, dtype, shape)?;
        self.write(data)?;
        self.end()
    }

    /// Starts the array `name` (`name.npy` in the archive) of `dtype` and `shape`: its elements
    /// follow in C order through [`NpzWriter::write`], then [`NpzWriter::end`].
    pub fn begin(&mut self, name: &str, dtype: Dtype, shape: &[usize]) -> Result<(), ArenaError> {
        assert!(self.open.is_none(), "an array is already being written");
        let header = npy_header(dtype, shape);
        let data = shape.iter().product::<usize>() as u64 * dtype.size() as u64;
        let size = header.len() as u64 + data;
        let file_name = format!("{name}.npy");
        if size > ZIP32_MAX || self.offset + size > ZIP32_MAX || self.entries.len() >= 0xFFFE {
            return Err(self.too_large());
        }
        let offset = self.offset;
        let mut local = Vec::with_capacity(30 + file_name.len());
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0
        local.extend_from_slice(&0u16.to_le_bytes()); // flags
        local.extend_from_slice(&0u16.to_le_bytes()); // stored
        local.extend_from_slice(&0u16.to_le_bytes()); // time
        local.extend_from_slice(&DOS_DATE.to_le_bytes());
        local.extend_from_slice(&0u32.to_le_bytes()); // CRC-32, written back at the end
        local.extend_from_slice(&(size as u32).to_le_bytes());
        local.extend_from_slice(&(size as u32).to_le_bytes());
        local.extend_from_slice(&(file_name.len() as u16).to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes()); // no extra field
        local.extend_from_slice(file_name.as_bytes());
        self.put(&local)?;
        self.open = Some(Open {
            name: file_name,
            offset,
            expected: size,
            written: 0,
            crc: crc32fast::Hasher::new(),
        });
        self.write(&header)
    }

    /// Appends elements to the array begun last.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), ArenaError> {
        let open = self.open.as_mut().expect("an array is begun");
        open.crc.update(bytes);
        open.written += bytes.len() as u64;
        assert!(
            open.written <= open.expected,
            "more bytes than the array's shape holds"
        );
        self.put(bytes)
    }

    /// Ends the array begun last: its CRC-32 goes back into its local header.
    pub fn end(&mut self) -> Result<(), ArenaError> {
        let open = self.open.take().expect("an array is begun");
        assert_eq!(
            open.written, open.expected,
            "the array's elements fill its shape"
        );
        let crc = open.crc.finalize();
        self.out.flush().map_err(|e| self.io(e))?;
        let file = self.out.get_mut();
        let patch = |file: &mut File| {
            file.seek(SeekFrom::Start(open.offset + 14))?;
            file.write_all(&crc.to_le_bytes())?;
            file.seek(SeekFrom::End(0)).map(|_| ())
        };
        patch(file).map_err(|e| self.io(e))?;
        self.entries.push(Entry {
            name: open.name,
            crc,
            size: open.expected as u32,
            offset: open.offset as u32,
        });
        Ok(())
    }

    /// Writes the central directory and the end record, and syncs the file.
    pub fn finish(mut self) -> Result<(), ArenaError> {
        assert!(self.open.is_none(), "an array is still being written");
        let start = self.offset;
        let mut directory = Vec::new();
        for entry in &self.entries {
            directory.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            directory.extend_from_slice(&20u16.to_le_bytes()); // made by: 2.0
            directory.extend_from_slice(&20u16.to_le_bytes()); // needed: 2.0
            directory.extend_from_slice(&0u16.to_le_bytes()); // flags
            directory.extend_from_slice(&0u16.to_le_bytes()); // stored
            directory.extend_from_slice(&0u16.to_le_bytes()); // time
            directory.extend_from_slice(&DOS_DATE.to_le_bytes());
            directory.extend_from_slice(&entry.crc.to_le_bytes());
            directory.extend_from_slice(&entry.size.to_le_bytes());
            directory.extend_from_slice(&entry.size.to_le_bytes());
            directory.extend_from_slice(&(entry.name.len() as u16).to_le_bytes());
            directory.extend_from_slice(&[0; 12]); // extra, comment, disk, attributes
            directory.extend_from_slice(&entry.offset.to_le_bytes());
            directory.extend_from_slice(entry.name.as_bytes());
        }
        if start + directory.len() as u64 > ZIP32_MAX {
            return Err(self.too_large());
        }
        let count = (self.entries.len() as u16).to_le_bytes();
        let mut end = Vec::with_capacity(22);
        end.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        end.extend_from_slice(&[0; 4]); // this disk, the directory's disk
        end.extend_from_slice(&count);
        end.extend_from_slice(&count);
        end.extend_from_slice(&(directory.len() as u32).to_le_bytes());
        end.extend_from_slice(&(start as u32).to_le_bytes());
        end.extend_from_slice(&0u16.to_le_bytes()); // no comment
        self.put(&directory)?;
        self.put(&end)?;
        self.out.flush().map_err(|e| self.io(e))?;
        self.out.get_ref().sync_all().map_err(|e| self.io(e))
    }
}

/// One array read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Its element type.
    pub dtype: Dtype,
    /// Its shape (empty for a single value).
    pub shape: Vec<usize>,
    /// Its elements in C order, little-endian.
    pub data: Vec<u8>,
}

impl Array {
    /// The elements as numbers (every numeric type converts exactly to `f64`).
    pub fn numbers(&self) -> Vec<f64> {
        let take = |n: usize| self.data.chunks_exact(n);
        match self.dtype {
            Dtype::U8 => self.data.iter().map(|&b| f64::from(b)).collect(),
            Dtype::I16 => take(2)
                .map(|b| f64::from(i16::from_le_bytes([b[0], b[1]])))
                .collect(),
            Dtype::U32 => take(4)
                .map(|b| f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
                .collect(),
            Dtype::I32 => take(4)
                .map(|b| f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
                .collect(),
            Dtype::F32 => take(4)
                .map(|b| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
                .collect(),
            Dtype::Str(_) => Vec::new(),
        }
    }

    /// The elements as text (strings; empty for numbers).
    pub fn texts(&self) -> Vec<String> {
        let Dtype::Str(chars) = self.dtype else {
            return Vec::new();
        };
        self.data
            .chunks_exact(4 * chars.max(1))
            .map(|element| {
                element
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .take_while(|&c| c != 0)
                    .filter_map(char::from_u32)
                    .collect()
            })
            .collect()
    }
}

/// An `.npz` file read whole into memory: the archives [`NpzWriter`] writes (stored entries,
/// zip32), not compressed ones (`numpy.savez_compressed`).
pub struct Npz {
    path: PathBuf,
    bytes: Vec<u8>,
    /// Each entry's name (without `.npy`) and where its data starts and ends.
    entries: Vec<(String, usize, usize)>,
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

impl Npz {
    /// Reads `path` and its table of entries.
    pub fn open(path: &Path) -> Result<Npz, ArenaError> {
        let bytes = std::fs::read(path).map_err(|e| ArenaError::Io {
            path: path.to_path_buf(),
            action: "read the positions file",
            error: e.to_string(),
        })?;
        let mut npz = Npz {
            path: path.to_path_buf(),
            bytes,
            entries: Vec::new(),
        };
        npz.entries = npz.directory().map_err(|problem| npz.bad(problem))?;
        Ok(npz)
    }

    fn bad(&self, problem: impl Into<String>) -> ArenaError {
        ArenaError::Io {
            path: self.path.clone(),
            action: "read the positions file",
            error: problem.into(),
        }
    }

    fn directory(&self) -> Result<Vec<(String, usize, usize)>, String> {
        let bytes = &self.bytes;
        let not_zip = || "not an .npz file (no zip end record at its end)".to_string();
        let end = bytes.len().checked_sub(22).ok_or_else(not_zip)?;
        if u32_at(bytes, end) != Some(0x0605_4b50) {
            return Err(not_zip());
        }
        let count = usize::from(u16_at(bytes, end + 10).ok_or_else(not_zip)?);
        let mut at = u32_at(bytes, end + 16).ok_or_else(not_zip)? as usize;
        let cut = || "cut short: an entry runs past the end of the file".to_string();
        let mut entries = Vec::with_capacity(count);
        for _ in 0..count {
            if u32_at(bytes, at) != Some(0x0201_4b50) {
                return Err("its zip directory is damaged".into());
            }
            let method = u16_at(bytes, at + 10).ok_or_else(cut)?;
            let size = u32_at(bytes, at + 20).ok_or_else(cut)? as usize;
            let name_len = usize::from(u16_at(bytes, at + 28).ok_or_else(cut)?);
            let extra = usize::from(u16_at(bytes, at + 30).ok_or_else(cut)?);
            let comment = usize::from(u16_at(bytes, at + 32).ok_or_else(cut)?);
            let local = u32_at(bytes, at + 42).ok_or_else(cut)? as usize;
            let name = bytes.get(at + 46..at + 46 + name_len).ok_or_else(cut)?;
            let name = String::from_utf8_lossy(name).into_owned();
            if method != 0 {
                return Err(format!(
                    "entry `{name}` is compressed (method {method}): only stored entries are \
                     read, as `arena positions` writes them"
                ));
            }
            let local_name = usize::from(u16_at(bytes, local + 26).ok_or_else(cut)?);
            let local_extra = usize::from(u16_at(bytes, local + 28).ok_or_else(cut)?);
            let start = local + 30 + local_name + local_extra;
            if start + size > bytes.len() {
                return Err(cut());
            }
            let name = name.strip_suffix(".npy").unwrap_or(&name).to_string();
            entries.push((name, start, start + size));
            at += 46 + name_len + extra + comment;
        }
        Ok(entries)
    }

    /// The names of its arrays, in the archive's order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(name, _, _)| name.as_str())
    }

    /// The array `name`.
    pub fn array(&self, name: &str) -> Result<Array, ArenaError> {
        let &(_, start, end) = self
            .entries
            .iter()
            .find(|(n, _, _)| n == name)
            .ok_or_else(|| self.bad(format!("it has no array `{name}`")))?;
        parse_npy(&self.bytes[start..end])
            .map_err(|problem| self.bad(format!("array `{name}`: {problem}")))
    }
}

/// An `.npy` array from its bytes.
fn parse_npy(bytes: &[u8]) -> Result<Array, String> {
    if !bytes.starts_with(b"\x93NUMPY") {
        return Err("not an .npy array (no magic string)".into());
    }
    let (header_len, at) = match bytes.get(6) {
        Some(1) => (u16_at(bytes, 8).map(usize::from), 10),
        Some(2 | 3) => (u32_at(bytes, 8).map(|n| n as usize), 12),
        _ => return Err("an .npy version this reader does not know".into()),
    };
    let header_len = header_len.ok_or("cut short in its header")?;
    let header = bytes
        .get(at..at + header_len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or("cut short in its header")?;
    let field = |key: &str| {
        let from = header.find(&format!("'{key}':"))? + key.len() + 3;
        Some(header[from..].trim_start())
    };
    let descr = field("descr")
        .and_then(|rest| rest.strip_prefix('\'')?.split('\'').next())
        .ok_or("its header has no descr")?;
    let dtype = Dtype::parse(descr).ok_or_else(|| format!("element type `{descr}` is not read"))?;
    if !field("fortran_order").is_some_and(|rest| rest.starts_with("False")) {
        return Err("only C order is read".into());
    }
    let dims = field("shape")
        .and_then(|rest| rest.strip_prefix('(')?.split(')').next())
        .ok_or("its header has no shape")?;
    let shape = dims
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| d.parse::<usize>().map_err(|_| format!("shape `({dims})`")))
        .collect::<Result<Vec<_>, _>>()?;
    let data = &bytes[at + header_len..];
    let wanted = shape
        .iter()
        .try_fold(dtype.size(), |n, &d| n.checked_mul(d))
        .ok_or_else(|| format!("its shape {shape:?} holds more bytes than a file can"))?;
    if data.len() != wanted {
        return Err(format!(
            "holds {} bytes of elements, its shape {shape:?} wants {wanted}",
            data.len()
        ));
    }
    Ok(Array {
        dtype,
        shape,
        data: data.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_npy;

    /// A header whose shape multiplies past `usize` is refused in words, not an overflow.
    #[test]
    fn a_shape_too_large_for_any_file_is_refused() {
        let header =
            "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }";
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        let error = parse_npy(&bytes).unwrap_err();
        assert!(error.contains("more bytes than a file can"), "{error}");
    }
}
